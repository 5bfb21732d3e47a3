public import GPIO

/// The presses of one button, decoded from its line's edges as they arrive.
///
/// ```swift
/// let source = try Libgpiod().watch(address, consumer: "kioskprint", settings: InputSettings())
/// for await press in ButtonPresses(source, decoder: ButtonDecoder(longPressAfter: .seconds(2))) { ... }
/// ```
/// It ends when the edges end: after `source.close()`, or when the line can
/// no longer be read. Iterate it once; the source's edges have one reader.
public struct ButtonPresses: AsyncSequence, Sendable {
    public typealias Element = ButtonPress
    public typealias Failure = Never

    private let edges: AsyncStream<LineEdge>
    private let decoder: ButtonDecoder

    public init(_ edges: AsyncStream<LineEdge>, decoder: ButtonDecoder) {
        self.edges = edges
        self.decoder = decoder
    }

    public init(_ source: any EdgeSource, decoder: ButtonDecoder) {
        self.init(source.edges, decoder: decoder)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(edges: edges.makeAsyncIterator(), decoder: decoder)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var edges: AsyncStream<LineEdge>.AsyncIterator
        var decoder: ButtonDecoder

        public mutating func next() async -> ButtonPress? {
            while let edge = await edges.next() {
                if let press = decoder.feed(edge) { return press }
            }
            return nil
        }
    }
}
