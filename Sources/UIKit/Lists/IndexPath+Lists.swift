import Foundation

/// A row of a table view or an item of a collection view: `[section, row]`.
/// UIKit adds these to Foundation's `IndexPath`; Foundation on Linux does not
/// have them.
extension IndexPath {
    /// The path of `row` in `section`.
    public init(row: Int, section: Int) {
        self.init(section, row)
    }

    /// The path of `item` in `section`.
    public init(item: Int, section: Int) {
        self.init(section, item)
    }

    /// `[section, index]`, made without an array: a path of one index grown
    /// by one stays in `IndexPath`'s inline storage, where `init(indexes:)`
    /// allocates the array it is given (a table allocated one per row that
    /// came into view).
    private init(_ section: Int, _ index: Int) {
        self.init(index: section)
        append(index)
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
