public import PrintModel

/// GPIO lines through libgpiod v1 (Debian 12's libgpiod 1.6), the kernel's
/// character-device interface (/dev/gpiochip*).
///
/// Every C call it makes is listed in the stand-in library
/// (Sources/Simulator/GPIOStandIn/gpiod_standin.c) that tests load with
/// LD_PRELOAD; a call added here must be added there too.
public struct Libgpiod: GPIOLines {
    public init() {}

    public func watch(_ address: LineAddress, consumer: String, settings: InputSettings) throws(GPIOError) -> any EdgeSource {
        let opened = try OpenedLine.open(address)
        do throws(GPIOError) {
            try opened.requestEdges(consumer: consumer, settings: settings)
        } catch {
            opened.close()
            throw error
        }
        return try LibgpiodEdgeSource(opened)
    }

    public func output(_ address: LineAddress, consumer: String, activeLow: Bool) throws(GPIOError) -> any OutputLine {
        let opened = try OpenedLine.open(address)
        do throws(GPIOError) {
            try opened.requestOutput(consumer: consumer, activeLow: activeLow)
        } catch {
            opened.close()
            throw error
        }
        return LibgpiodOutputLine(opened)
    }
}
