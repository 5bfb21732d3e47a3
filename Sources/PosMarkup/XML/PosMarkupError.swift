/// Why a request cannot be printed, naming the element and attribute: what
/// ePOS-Print answers `SchemaError` for, and WebPRNT answers with HTTP 400.
public struct PosMarkupError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
