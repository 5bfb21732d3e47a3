/// The speed a simulated printer takes bytes at: a serial line's (baud / 10
/// bytes a second at 8N1, since a pseudo-terminal carries everything at
/// once), or a slow printer working through its buffer. A token bucket:
/// the line earns its bytes as time passes, and earns nothing while idle
/// beyond a quarter of a second's worth, as a real line carries nothing
/// while nothing is sent. That much credit lets the reading thread catch
/// up after the scheduler kept it waiting on a busy machine, so the line
/// keeps its speed over a job.
struct LinePace {
    let bytesPerSecond: Int
    private var credit: Double = 0
    private var lastLook = ContinuousClock.now

    init(bytesPerSecond: Int) {
        self.bytesPerSecond = max(1, bytesPerSecond)
    }

    /// The most credit kept: 250 ms of the line.
    private var burst: Double { max(1, Double(bytesPerSecond) / 4) }

    /// The least read at a time: 20 ms of the line, so a slow line reads in
    /// pieces of tens of bytes, not one by one.
    private var piece: Double { max(1, Double(bytesPerSecond) / 50) }

    /// Bytes the line may carry now: 0 until a piece has been earned.
    mutating func available() -> Int {
        let now = ContinuousClock.now
        let elapsed = now - lastLook
        lastLook = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        credit = min(burst, credit + seconds * Double(bytesPerSecond))
        return credit >= piece ? Int(credit) : 0
    }

    /// Spends the credit for `count` bytes read.
    mutating func took(_ count: Int) {
        credit -= Double(count)
    }

    /// Milliseconds until `available()` is non-zero again, for poll(2).
    var millisecondsToNextPiece: Int32 {
        let missing = max(0, piece - credit)
        return Int32((missing / Double(bytesPerSecond) * 1000).rounded(.up)) + 1
    }
}
