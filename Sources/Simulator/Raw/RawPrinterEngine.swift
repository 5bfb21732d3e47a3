/// A simulated printer's command interpreter: fed the bytes a link reads, in
/// whatever pieces they arrive, it keeps the printer's state and says what
/// the printer sends back. The same engine serves a TCP socket and a
/// pseudo-terminal, so both transports behave alike.
protocol RawPrinterEngine: Sendable {
    /// Interprets `bytes`, the next part of the stream (a command may be split
    /// anywhere); returns the bytes the printer answers at once.
    mutating func receive(_ bytes: ArraySlice<UInt8>) -> [UInt8]

    /// The connection ended. A command cut off in the middle is dropped and
    /// noted; the printer's settings and paper stay as they are.
    mutating func connectionEnded()
}
