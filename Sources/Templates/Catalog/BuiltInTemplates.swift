/// The templates compiled into kioskprint, each with sample data. Their
/// files are in Sources/Templates/BuiltIn/, where integrators can read and
/// copy them; SwiftPM embeds them in the binary (`PackageResources`), so an
/// installed kioskprint needs no data files beside it.
public enum BuiltInTemplates {
    /// Every built-in, by name.
    public static let all: [TemplateSource] = [
        make("receipt", PackageResources.receipt_xml, PackageResources.receipt_sample_json,
             "retail receipt, 80 or 58 mm roll: logo, items, discounts, taxes, payment, QR"),
        make("receipt-ru", PackageResources.receipt_ru_xml, PackageResources.receipt_ru_sample_json,
             "the receipt with Russian labels and data (Cyrillic text)"),
        make("shipping-label", PackageResources.shipping_label_xml, PackageResources.shipping_label_sample_json,
             "4 x 6 in shipping label, tracking number as Code 128"),
        make("product-label", PackageResources.product_label_xml, PackageResources.product_label_sample_json,
             "58 x 40 mm product label with EAN-13"),
        make("bag-tag", PackageResources.bag_tag_xml, PackageResources.bag_tag_sample_json,
             "airline bag tag, 2.125 x 8 in, licence plate as Interleaved 2 of 5"),
        make("boarding-pass", PackageResources.boarding_pass_xml, PackageResources.boarding_pass_sample_json,
             "boarding pass for an 80 mm roll, IATA BCBP as PDF417"),
        make("boarding-pass-ticket", PackageResources.boarding_pass_ticket_xml,
             PackageResources.boarding_pass_ticket_sample_json,
             "boarding pass on 8 x 3.25 in ticket stock (landscape), BCBP as PDF417"),
        make("test-page", PackageResources.test_page_xml, PackageResources.test_page_sample_json,
             "what `printers test` prints: the printer, its paper, and a 50 mm ruler"),
    ]

    /// Images the built-ins name in `<image src>`.
    static let assets = TemplateAssets(embedded: ["logo.png": PackageResources.logo_png])

    private static func make(_ name: String, _ template: [UInt8], _ sample: [UInt8], _ summary: String) -> TemplateSource {
        TemplateSource(name: name, origin: .builtIn, text: String(decoding: template, as: UTF8.self),
                       file: "built-in/\(name).xml", assets: assets,
                       sampleData: String(decoding: sample, as: UTF8.self), summary: summary)
    }
}
