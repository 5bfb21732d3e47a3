// usb:// and serial://, the two addresses of devices on this machine.
extension RawURIParser {
    // MARK: usb://MAKE/MODEL?serial=SERIAL&interface=N

    func parseUSB(_ rest: Substring) throws(RawURIError) -> RawPrinterURI {
        guard rest.hasPrefix("//") else { throw refusal("usb: must be followed by //", scheme: .usb) }
        let (beforeQuery, queryText) = splitQuery(rest.dropFirst(2))
        guard let slash = beforeQuery.firstIndex(of: "/") else {
            throw refusal("the model is missing after the make", scheme: .usb)
        }
        guard let make = PercentEncoding.decode(String(beforeQuery[..<slash])),
              let model = PercentEncoding.decode(String(beforeQuery[beforeQuery.index(after: slash)...]))
        else { throw refusal("a '%' escape in the make or model is broken", scheme: .usb) }
        guard !make.trimmingWhitespace().isEmpty else { throw refusal("the make is missing", scheme: .usb) }
        guard !model.trimmingWhitespace().isEmpty else { throw refusal("the model is missing", scheme: .usb) }
        let query = try options(queryText, known: ["serial", "interface"], allowPlus: false, scheme: .usb)
        // CUPS writes serial=? for a printer without a serial number.
        let serial = query["serial"].flatMap { $0.isEmpty || $0 == "?" ? nil : $0 }
        var interface: Int?
        if let text = query["interface"] {
            guard let number = Int(text), number >= 0, text.allSatisfy(\.isNumber) else {
                throw refusal("the interface '\(text)' is not a number", scheme: .usb)
            }
            interface = number
        }
        return .usb(USBPrinterIdentity(make: make, model: model, serialNumber: serial, interface: interface))
    }

    // MARK: serial:///dev/ttyUSB0?baud=N&flow=F&bits=B&parity=P&stop=S

    func parseSerial(_ rest: Substring) throws(RawURIError) -> RawPrinterURI {
        let (pathPart, queryText) = splitQuery(rest)
        var pathText = pathPart
        if pathText.hasPrefix("//") {
            pathText = pathText.dropFirst(2)
            guard pathText.hasPrefix("/") || pathText.isEmpty else {
                throw refusal("the device path must start with '/': three slashes, as in serial:///dev/ttyUSB0",
                              scheme: .serial)
            }
        }
        guard pathText.hasPrefix("/"), pathText.count > 1 else {
            throw refusal("the device path (such as /dev/ttyUSB0) is missing", scheme: .serial)
        }
        guard let path = PercentEncoding.decode(String(pathText)), !path.contains("\0") else {
            throw refusal("a '%' escape in the device path is broken", scheme: .serial)
        }
        let query = try options(queryText, known: ["baud", "flow", "bits", "parity", "stop"], allowPlus: true,
                                scheme: .serial)
        guard let baudText = query["baud"] else {
            throw refusal("the speed is missing: add ?baud= with the speed the printer's self-test page shows",
                          scheme: .serial)
        }
        guard let baud = Int(baudText), SerialSettings.supportedBauds.contains(baud) else {
            throw refusal("the baud '\(baudText)' is not a serial speed", scheme: .serial)
        }
        var settings = SerialSettings(baud: baud)
        if let flow = query["flow"] { settings.flowControl = try flowControl(flow) }
        if let bits = query["bits"] {
            guard let number = Int(bits), (5...8).contains(number) else {
                throw refusal("bits=\(bits) is not 5, 6, 7 or 8", scheme: .serial)
            }
            settings.dataBits = number
        }
        if let parity = query["parity"] {
            guard let value = SerialSettings.Parity(rawValue: parity.lowercased()) else {
                throw refusal("parity=\(parity) is not none, even or odd", scheme: .serial)
            }
            settings.parity = value
        }
        if let stop = query["stop"] {
            guard stop == "1" || stop == "2" else { throw refusal("stop=\(stop) is not 1 or 2", scheme: .serial) }
            settings.stopBits = Int(stop)!
        }
        return .serial(path: path, settings: settings)
    }

    private func flowControl(_ text: String) throws(RawURIError) -> SerialSettings.FlowControl {
        switch text.lowercased() {
        case "none": return .none
        case "rtscts", "hard": return .rtsCTS  // hard and soft are CUPS's names
        case "xonxoff", "soft": return .xonXoff
        case "dtrdsr":
            throw refusal("Linux has no DTR/DSR flow control; set the printer to RTS/CTS and use flow=rtscts",
                          scheme: .serial)
        default:
            throw refusal("flow=\(text) is not rtscts, xonxoff or none", scheme: .serial)
        }
    }

    // MARK: Shared

    /// The part before `?` and the query after it (nil when there is no `?`).
    /// A `#fragment` is kept in the query, where it fails as an unknown option.
    private func splitQuery(_ text: Substring) -> (Substring, Substring?) {
        guard let question = text.firstIndex(of: "?") else { return (text, nil) }
        return (text[..<question], text[text.index(after: question)...])
    }

    private func options(_ queryText: Substring?, known: Set<String>, allowPlus: Bool,
                         scheme: RawPrinterURI.Scheme) throws(RawURIError) -> URIQuery {
        guard let queryText else { return URIQuery(items: []) }
        let query: URIQuery
        switch URIQuery.parse(queryText, allowPlus: allowPlus) {
        case .success(let parsed): query = parsed
        case .failure(let problem): throw refusal("the option '\(problem.item)' is not key=value", scheme: scheme)
        }
        let (unknown, repeated) = query.unexpectedKeys(known: known)
        if let key = unknown.first {
            let list = known.sorted().joined(separator: ", ")
            throw refusal("'\(key)' is not one of its options (\(list))", scheme: scheme)
        }
        if let key = repeated.first { throw refusal("the option '\(key)' is given twice", scheme: scheme) }
        return query
    }
}
