import GPIO
import Testing
import Triggers

@Suite("Button decoder", .timeLimit(.minutes(1)))
struct ButtonDecoderTests {
    @Test func aQuickPressAndReleaseIsAShortPress() {
        var decoder = ButtonDecoder()
        #expect(decoder.presses(in: edges(1000, 1120)) == [ButtonPress(kind: .short, held: .milliseconds(120))])
        #expect(!decoder.isPressed)
    }

    @Test func theLongPressThresholdIsInclusive() {
        var decoder = ButtonDecoder(longPressAfter: .seconds(2))
        let presses = decoder.presses(in: edges(0, 1999, 5000, 7000, 10_000, 13_000))
        #expect(presses.map(\.kind) == [.short, .long, .long])
        #expect(presses.map(\.held) == [.milliseconds(1999), .seconds(2), .seconds(3)])
    }

    @Test func aLongPressIsReportedOnlyAtRelease() {
        var decoder = ButtonDecoder(longPressAfter: .seconds(2))
        #expect(decoder.feed(LineEdge(isActive: true, timestamp: .seconds(10))) == nil)
        #expect(decoder.isPressed)
        #expect(decoder.feed(LineEdge(isActive: false, timestamp: .seconds(15))) == ButtonPress(kind: .long, held: .seconds(5)))
    }

    @Test func bounceOnPressAndReleaseIsIgnored() {
        var decoder = ButtonDecoder(debounce: .milliseconds(30))
        // Press at 0, the contacts chattering until 6 ms; release at 400, chattering until 409.
        let presses = decoder.presses(in: edges(0, 3, 6, 400, 404, 409, 1000, 1100))
        #expect(presses == [ButtonPress(kind: .short, held: .milliseconds(400)),
                            ButtonPress(kind: .short, held: .milliseconds(100))])
    }

    @Test func anEdgeExactlyOneDebounceLaterCounts() {
        var decoder = ButtonDecoder(debounce: .milliseconds(30))
        #expect(decoder.presses(in: edges(0, 30)) == [ButtonPress(kind: .short, held: .milliseconds(30))])
        var other = ButtonDecoder(debounce: .milliseconds(30))
        #expect(other.presses(in: edges(0, 29)).isEmpty)
        #expect(other.isPressed)
    }

    @Test func aReleaseWithoutAPressIsIgnored() {
        var decoder = ButtonDecoder()
        // A release first (its press was lost as bounce, or came before the watch began).
        #expect(decoder.presses(in: edges(0, startingActive: false)).isEmpty)
        #expect(!decoder.isPressed)
        // It changed nothing: the next press is measured from its own edge.
        #expect(decoder.presses(in: edges(500, 600)) == [ButtonPress(kind: .short, held: .milliseconds(100))])
    }

    @Test func aPressWhilePressedStartsThePressAgain() {
        var decoder = ButtonDecoder()
        let sequence = [LineEdge(isActive: true, timestamp: .seconds(1)),
                        LineEdge(isActive: true, timestamp: .seconds(60)),
                        LineEdge(isActive: false, timestamp: .milliseconds(60_150))]
        // The lost release must not become a 59-second long press.
        #expect(decoder.presses(in: sequence) == [ButtonPress(kind: .short, held: .milliseconds(150))])
    }

    @Test func aClockSteppedBackDoesNotMuteTheButton() {
        var decoder = ButtonDecoder(debounce: .milliseconds(30))
        _ = decoder.presses(in: edges(50_000, 50_100))
        // The wall clock went back 10 s: these edges are earlier than the last one.
        #expect(decoder.presses(in: edges(40_000, 40_200)) == [ButtonPress(kind: .short, held: .milliseconds(200))])
    }

    @Test func pressesStreamFromAnEdgeStream() async {
        let (stream, continuation) = AsyncStream<LineEdge>.makeStream()
        for edge in edges(0, 100, 1000, 1005, 1010, 4000) { continuation.yield(edge) }
        continuation.finish()
        var received: [ButtonPress] = []
        for await press in ButtonPresses(stream, decoder: ButtonDecoder(debounce: .milliseconds(30))) {
            received.append(press)
        }
        #expect(received == [ButtonPress(kind: .short, held: .milliseconds(100)),
                             ButtonPress(kind: .long, held: .seconds(3))])
    }
}
