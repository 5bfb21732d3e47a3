import CommandLineOutput
import Foundation
import Templates

/// The agent's configuration for the demo, written into a folder of the
/// lab's: box "demo-till"; `pos/` takes receipt data, `coupons/` coupon data
/// (for the raw ESC/POS printer) and `labels/` job envelopes; with the
/// simulated GPIO chip, a take-a-number button on line 17 and the receipt
/// printer's light on line 27.
///
/// The ticket and coupon templates are the demo's own, written beside the
/// configuration, so the demo does not depend on finding this repository's
/// kiosk-config/ from wherever the binary is installed.
struct DemoConfiguration {
    static let box = "demo-till"
    static let buttonLine = 17
    static let lightLine = 27
    static let counter = "tickets"

    /// The folder holding the configuration, its templates, the watched folders and the agent's log.
    let folder: String
    let withGPIO: Bool

    var configPath: String { folder + "/kioskprint.toml" }
    var templates: String { folder + "/templates" }
    var pos: String { folder + "/pos" }
    var labels: String { folder + "/labels" }
    var coupons: String { folder + "/coupons" }
    var log: String { folder + "/agent.log" }

    /// Creates the folders and writes the configuration and the ticket template.
    static func write(into folder: String, withGPIO: Bool) throws -> DemoConfiguration {
        let demo = DemoConfiguration(folder: folder, withGPIO: withGPIO)
        for path in [demo.templates, demo.pos, demo.labels, demo.coupons] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        try Data(ticketTemplate.utf8).write(to: URL(fileURLWithPath: demo.templates + "/queue-ticket.xml"))
        try Data(couponTemplate.utf8).write(to: URL(fileURLWithPath: demo.templates + "/coupon.xml"))
        try Data(demo.toml.utf8).write(to: URL(fileURLWithPath: demo.configPath))
        return demo
    }

    /// The configuration file (docs/CONFIGURATION.md). Paths are relative to its folder.
    var toml: String {
        var text = """
        # kioskprint-demo: the agent on the demo's simulated printers.
        box = "\(Self.box)"
        templates = ["templates"]
        log-level = "info"

        # Receipt data from the till software: one .json file per receipt.
        [[folder]]
        path = "pos"
        role = "receipt"
        template = "receipt"

        # Coupons from the loyalty system, printed by the ESC/POS printer on raw TCP.
        [[folder]]
        path = "coupons"
        role = "coupon"
        template = "coupon"

        # Job envelopes ({"template", "role", "name", "data"}), e.g. shipping labels.
        [[folder]]
        path = "labels"
        role = "label"

        # The HTTP API for a POS, on a free loopback port (the log names it), so the
        # demo never meets an agent already on the usual 127.0.0.1:9180.
        [http]
        listen = "127.0.0.1:0"

        # The receipt role is also an IPP Everywhere printer, for CUPS, iOS and the rest,
        # on a free loopback port as well.
        [ipp]
        listen = "127.0.0.1:0"

        [role.receipt]
        ipp-printer = true
        # ...an Epson ePOS-Print device for web POS pages, as Odoo's "local_printer",
        # and a Star WebPRNT printer for pages on Star's SDK.
        epos = true
        epos-devid = "local_printer"
        webprnt = true

        # The kitchen role's printer is a Star TSP143III (Star Graphic mode); web POS pages
        # on Star's SDK print to it as to a Star printer.
        [role.kitchen]
        webprnt = true

        # The coupon role is also a till's raw port 9100 (ESC/POS), on a free loopback port.
        [role.coupon]
        raw-listen = "127.0.0.1:0"

        """
        guard withGPIO else { return text }
        text += """

        [[button]]
        name = "take-a-number"
        chip = "gpiochip0"
        line = \(Self.buttonLine)

        [button.press]
        print = "queue-ticket"
        role = "receipt"
        counter = "\(Self.counter)"

        [button.press.data]
        department = "Demo counter"
        message = "Please wait until your number is called"

        [[light]]
        role = "receipt"
        chip = "gpiochip0"
        line = \(Self.lightLine)
        check-every = "1s"

        """
        return text
    }

    /// A take-a-number ticket for a roll, after kiosk-config/queue-ticket's.
    static let ticketTemplate = """
        <!-- The demo's take-a-number ticket. The agent adds counter, date, time, box and button. -->
        <template page="roll" min-length="60mm" margin="2mm">
          <text align="center" size="16" bold="true">{{department}}</text>
          <space height="1mm"/>
          <rule thickness="0.5mm"/>
          <space height="3mm"/>
          <text align="center" size="10">YOUR NUMBER</text>
          <text align="center" size="76" bold="true" wrap="char">{{counter}}</text>
          <space height="2mm"/>
          <text align="center" size="13" bold="true">{{message}}</text>
          <space height="4mm"/>
          <rule style="dashed"/>
          <space height="1mm"/>
          <row size="10"><col width="1fr">{{date}}</col><col align="right">{{time}}</col></row>
          <text align="center" size="7">{{box}} - {{button}}</text>
          <cut/>
        </template>

        """

    /// A coupon for an 80 mm roll, cut after its content: what the raw
    /// ESC/POS printer prints, drawn as a bitmap like every page.
    static let couponTemplate = """
        <!-- The demo's coupon, for the coupon printer (ESC/POS on raw TCP). -->
        <template page="roll" min-length="50mm" margin="2mm">
          <text align="center" size="10">{{store}}</text>
          <rule thickness="0.5mm"/>
          <space height="2mm"/>
          <text align="center" size="30" bold="true">{{offer}}</text>
          <text align="center" size="12">{{detail}}</text>
          <space height="3mm"/>
          <barcode type="code128" module="2" height="12mm">{{code}}</barcode>
          <text align="center" size="9">Valid until {{until}}, one per customer</text>
          <space height="2mm"/>
          <rule style="dashed"/>
          <cut/>
        </template>

        """

    /// What the loyalty system writes for one coupon.
    static let couponData = """
        {"store": "Kiosk Market Harbourside", "offer": "20% OFF", "detail": "your next flat white",
         "code": "CPN-4711-0425", "until": "31 Dec 2026"}

        """

    // MARK: What an application drops

    /// A job file and the folder it goes into.
    struct Drop {
        var name: String
        var folder: String
        var contents: String
        var what: String
    }

    /// The receipt's sample data into pos/, a shipping-label envelope into
    /// labels/, a receipt whose JSON is cut short into pos/, and a coupon's
    /// data into coupons/. Every drop but the third becomes a job.
    func sampleDrops() throws -> [Drop] {
        guard let receipt = BuiltInTemplates.all.first(where: { $0.name == "receipt" })?.sampleData,
              let label = BuiltInTemplates.all.first(where: { $0.name == "shipping-label" })?.sampleData else {
            throw demoFailure("the built-in receipt and shipping-label templates have no sample data.")
        }
        let envelope = #"{"template": "shipping-label", "role": "label", "name": "Parcel WEB-88213", "data": "#
            + label.trimmingCharacters(in: .whitespacesAndNewlines) + "}\n"
        return [
            Drop(name: "R-2026-004711.json", folder: pos, contents: receipt, what: "the receipt's data"),
            Drop(name: "parcel-WEB-88213.json", folder: labels, contents: envelope, what: "a shipping-label envelope"),
            Drop(name: "R-2026-004712.json", folder: pos, contents: Self.malformedReceipt, what: "receipt data cut short"),
            Drop(name: "CPN-4711-0425.json", folder: coupons, contents: Self.couponData, what: "a coupon's data"),
        ]
    }

    /// Receipt data as a till that crashed mid-write would leave it.
    static let malformedReceipt = #"{"store": {"name": "Kiosk Market Harbourside"}, "items": [{"name": "Flat white", "#

    /// Writes `drop` the way applications should: under a dot-temp name, then renamed into place.
    static func place(_ drop: Drop) throws {
        let temporary = drop.folder + "/." + drop.name + ".tmp"
        try Data(drop.contents.utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, drop.folder + "/" + drop.name) == 0 else {
            throw demoFailure("renaming \(temporary) into place failed: \(String(cString: strerror(errno))).")
        }
    }
}
