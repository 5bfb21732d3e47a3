package import Setup

/// The USB printers plugged into this machine, as `printers discover` lists
/// them under the network's: what each says it is and the URI to add it by.
package enum LocalPrinterTable {
    package static func render(_ printers: [LocalPrinterListing]) -> String {
        var table = TextTable("MAKE AND MODEL", "LANGUAGE", "NODE", "NOTE", "DEVICE ID", "URI")
        for local in printers {
            table.add(local.makeAndModel, local.language?.description ?? "-", local.printer.node, local.note,
                      local.printer.deviceID.text, local.uri)
        }
        return table.render()
    }
}
