import Foundation

/// A row of a table view or an item of a collection view: `[section, row]`.
/// UIKit adds these to Foundation's `IndexPath`; Foundation on Linux does not
/// have them.
extension IndexPath {
    /// The path of `row` in `section`.
    public init(row: Int, section: Int) {
        self.init(indexes: [section, row])
    }

    /// The path of `item` in `section`.
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The first index: the section.
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The second index: the row of a table view.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The second index: the item of a collection view.
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
