/// One element's attributes, read with the element named in every problem.
struct Attributes {
    let element: String
    let values: [String: String]

    init(_ element: XMLElementNode) { self.element = element.name; values = element.attributes }

    subscript(name: String) -> String? { values[name] }
    func has(_ name: String) -> Bool { values[name] != nil }

    func integer(_ name: String, in range: ClosedRange<Int>) throws(PosMarkupError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw PosMarkupError("<\(element) \(name)=\"\(text)\"> is not a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    func boolean(_ name: String) throws(PosMarkupError) -> Bool? {
        guard let text = values[name] else { return nil }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: throw PosMarkupError("<\(element) \(name)=\"\(text)\"> is not true or false.")
        }
    }

    func choice(_ name: String, _ choices: [String]) throws(PosMarkupError) -> String? {
        guard let text = values[name] else { return nil }
        guard choices.contains(text) else {
            throw PosMarkupError("<\(element) \(name)=\"\(text)\"> is not one of \(choices.joined(separator: ", ")).")
        }
        return text
    }

    func align() throws(PosMarkupError) -> ReceiptAlign? {
        guard let text = values["align"] else { return nil }
        guard let align = ReceiptAlign(rawValue: text) else {
            throw PosMarkupError("<\(element) align=\"\(text)\"> is not left, center or right.")
        }
        return align
    }
}
