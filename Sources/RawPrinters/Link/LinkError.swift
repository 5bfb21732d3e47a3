import Glibc

/// Why a raw printer could not be reached or stopped taking data. Every
/// message names the printer's URI and says what to check next: whoever
/// reads it stands at a kiosk with no one to ask.
public struct LinkError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, with what the message needs.
    public enum Reason: Sendable, Equatable {
        /// The host name does not resolve (`detail` is the resolver's word).
        case hostNotFound(host: String, detail: String)
        /// The resolver gave no answer by the deadline.
        case lookupTimedOut(host: String, seconds: Double)
        /// Nothing accepts connections at that address and port (ECONNREFUSED).
        case refused
        /// The network failed before a connection existed (no route, network down).
        case unreachable(errno: Int32)
        /// The TCP handshake did not complete by the deadline.
        case connectTimedOut(seconds: Double)
        /// The printer stopped taking data: `sent` of `total` bytes went out,
        /// then none for `seconds` (the stall window).
        case writeTimedOut(sent: Int, total: Int, seconds: Double)
        /// The printer closed or reset the connection, or the device went
        /// away. `sent` and `total` are set when it happened while writing.
        case connectionLost(errno: Int32?, sent: Int?, total: Int?)
        /// No device file at this path (ENOENT, ENODEV, ENXIO).
        case noSuchDevice(path: String)
        /// The device file may not be opened by this user (EACCES, EPERM).
        case permissionDenied(path: String)
        /// Another program holds the device (EBUSY).
        case deviceBusy(path: String)
        /// The path is not a terminal, so it cannot be a serial line (ENOTTY).
        case notASerialLine(path: String)
        /// The line settings were refused by the driver.
        case settingsRefused(path: String, errno: Int32)
        /// No connected USB printer has the URI's identity; what is connected instead.
        case usbPrinterNotConnected(connected: [LocalUSBPrinter])
        /// Several connected USB printers have the URI's make and model and it names no serial number.
        case usbPrinterAmbiguous(nodes: [String])
        /// The device could be opened for writing only, so nothing can be read from it.
        case readNotSupported(path: String)
        /// Any other system error (`errno`) during `operation` ("open /dev/usb/lp0", "poll").
        case systemError(operation: String, errno: Int32)
        /// The link was closed before or during the call.
        case closed
        /// The caller's task was cancelled; the link has been closed.
        case cancelled
    }

    /// The printer the link was for.
    public let uri: RawPrinterURI
    /// What went wrong.
    public let reason: Reason

    public init(uri: RawPrinterURI, reason: Reason) {
        self.uri = uri
        self.reason = reason
    }

    /// The bytes that went out before a write failed, when that is known.
    public var bytesSent: Int? {
        switch reason {
        case .writeTimedOut(let sent, _, _): sent
        case .connectionLost(_, let sent, _): sent
        default: nil
        }
    }

    public var description: String {
        let check = "then run `kioskprint printers check`"
        switch reason {
        case .hostNotFound(let host, let detail):
            return "Cannot reach \(uri): the host name '\(host)' does not resolve (\(detail)). Check the spelling, "
                + "or use the printer's IP address (its network status page, printed by holding the feed button, shows it)."
        case .lookupTimedOut(let host, let seconds):
            return "Cannot reach \(uri): looking up '\(host)' took longer than \(Self.format(seconds)) s. Check the kiosk's "
                + "DNS settings, or use the printer's IP address instead of its name."
        case .refused:
            return "Cannot reach \(uri): nothing accepts connections at that address and port "
                + "(\(Self.text(ECONNREFUSED))). Check that the printer is switched on and that its address and raw "
                + "port (usually 9100) are right, \(check)."
        case .unreachable(let code):
            return "Cannot reach \(uri): \(Self.text(code)). Check the kiosk's network connection and the printer's "
                + "address, \(check)."
        case .connectTimedOut(let seconds):
            return "\(uri) did not accept a connection within \(Self.format(seconds)) s: the printer is off, unplugged or "
                + "on another network. Check it, \(check)."
        case .writeTimedOut(let sent, let total, let seconds):
            return "\(uri) stopped taking data: \(sent) of \(total) bytes went through, then it took none for "
                + "\(Self.format(seconds)) s. Its buffer is full or it is paused (cover open, paper out, an error light). "
                + "Check the printer, \(check)."
        case .connectionLost(let code, let sent, let total):
            let cause = code.map { " (\(Self.text($0)))" } ?? ""
            let progress = sent.map { s in total.map { " after \(s) of \($0) bytes" } ?? " after \(s) bytes" } ?? ""
            return "\(uri) closed the connection\(progress)\(cause): the printer was switched off, unplugged or restarted. "
                + "Check it, \(check)."
        case .noSuchDevice(let path):
            return "Cannot open \(uri): \(path) does not exist. Check that the printer's cable or USB-serial adapter is "
                + "plugged in and the path is right (ls /dev/ttyUSB* /dev/ttyS* /dev/usb/lp*)."
        case .permissionDenied(let path):
            return "Cannot open \(uri): this user may not open \(path). Run the agent as a user in the group that owns "
                + "it (ls -l \(path) shows it, usually dialout or lp)."
        case .deviceBusy(let path):
            return "Cannot open \(uri): another program holds \(path). Stop it (fuser \(path) names it) or remove the "
                + "printer from CUPS, \(check)."
        case .notASerialLine(let path):
            return "Cannot use \(uri): \(path) is not a serial line. Give the path of a serial port, such as "
                + "/dev/ttyUSB0 or /dev/ttyS0."
        case .settingsRefused(let path, let code):
            return "Cannot set up \(path) for \(uri) (\(Self.text(code))): the port does not support these settings. "
                + "Try another baud rate or flow control that the printer is also set to."
        case .usbPrinterNotConnected(let connected):
            let wanted = Self.usbSummary(of: uri)
            let found = connected.isEmpty
                ? "no USB printer is connected"
                : "found " + connected.map { "\($0.identity.summary) at \($0.node)" }.joined(separator: ", ")
            return "No USB printer \(wanted) is connected: \(found). Check the cable and power, or save the printer "
                + "again (`kioskprint printers discover` lists the connected ones)."
        case .usbPrinterAmbiguous(let nodes):
            return "Several USB printers \(Self.usbSummary(of: uri)) are connected (\(nodes.joined(separator: ", "))) and "
                + "\(uri) names no serial number. Save the printer again with its serial number, as "
                + "`kioskprint printers discover` lists it."
        case .readNotSupported(let path):
            return "\(uri) can only be written to: \(path) opened write-only, so the printer's status cannot be read. "
                + "Allow this user to read \(path) as well (ls -l \(path))."
        case .systemError(let operation, let code):
            return "\(uri): \(operation) failed (\(Self.text(code))). Check the printer and its connection, \(check)."
        case .closed:
            return "The link to \(uri) was already closed; open it again."
        case .cancelled:
            return "Talking to \(uri) was cancelled and the link closed; the printer may have received part of the data."
        }
    }

    /// The system's wording for an errno value ("Connection refused").
    static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// `5`, `2.5`: seconds without a trailing `.0`.
    static func format(_ seconds: Double) -> String {
        let tenths = (seconds * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    private static func usbSummary(of uri: RawPrinterURI) -> String {
        if case .usb(let identity) = uri { return identity.summary }
        return uri.description
    }
}
