public import PrintModel

/// One printer model in the catalog: its profile on the usual paper, the
/// other paper widths its maker documents, and the names it goes by.
public struct CatalogEntry: Hashable, Sendable {
    /// The figures on the model's usual paper (80 mm rolls; 4 in labels).
    public var profile: RawProfile
    /// Other names for the model, as IEEE 1284 `MDL:` values and people
    /// write them (`TSP143IIIU`, `TSP100`); the model's own name is always matched too.
    public var aliases: [String]
    /// Paper widths the maker documents, each with the dots printed on it.
    public var paperOptions: [PaperOption]
    /// Dots across the whole print head: the most any paper gets.
    public var headDots: Int

    /// An entry; without paper options the profile's own paper is the only
    /// one, and without `headDots` the head is as wide as its printable dots.
    public init(profile: RawProfile, aliases: [String] = [], paperOptions: [PaperOption] = [], headDots: Int? = nil) {
        self.profile = profile; self.aliases = aliases
        self.paperOptions = paperOptions.isEmpty
            ? [PaperOption(width: profile.paperWidth, printableDots: profile.printableDots)] : paperOptions
        self.headDots = headDots ?? profile.printableDots
    }

    /// The name `--model` takes: `TM-T88VI`, `ZD420-203dpi`.
    public var name: String { profile.model }

    /// Every name the entry answers to, its own first.
    public var names: [String] { [profile.model] + aliases }
}

/// A paper width a model takes, with the dots its head prints across it.
public struct PaperOption: Hashable, Sendable {
    /// The paper or label stock width.
    public var width: Length
    /// Dots printed across it.
    public var printableDots: Int

    /// A paper width and the dots printed across it.
    public init(width: Length, printableDots: Int) {
        self.width = width; self.printableDots = printableDots
    }
}
