import Foundation

/// The state of a list's data at one moment: its sections and their items,
/// each named by a unique identifier. Build one, then hand it to a diffable
/// data source's `apply(_:animatingDifferences:completion:)`, which works
/// out what changed since the last one.
///
/// Identifiers must be unique across the snapshot. UIKit stops the app for
/// a duplicate; here adding one is reported (`Diagnostic.Kind.invalidListUpdate`)
/// and the duplicate is left out, and an operation that names an
/// identifier the snapshot does not have is reported and does nothing.
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    private var sections: [SectionIdentifierType] = []
    private var items: [[ItemIdentifierType]] = []
    /// The items UIKit would reload or reconfigure when the snapshot is applied.
    private(set) var reloadedItems: Set<ItemIdentifierType> = []
    private(set) var reloadedSections: Set<SectionIdentifierType> = []

    /// An empty snapshot.
    public init() {}

    // MARK: Reading

    public var numberOfSections: Int { sections.count }
    public var numberOfItems: Int { items.reduce(0) { $0 + $1.count } }
    public var sectionIdentifiers: [SectionIdentifierType] { sections }
    public var itemIdentifiers: [ItemIdentifierType] { items.flatMap { $0 } }

    /// The number of items in `identifier`'s section; 0 if there is no such section.
    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        indexOfSection(identifier).map { items[$0].count } ?? 0
    }

    /// The items of a section, in order; empty if there is no such section.
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        indexOfSection(identifier).map { items[$0] } ?? []
    }

    /// The section holding an item; nil if the snapshot does not have it.
    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        location(of: identifier).map { sections[$0.section] }
    }

    /// The item's position among all items, section after section; nil if absent.
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? {
        var offset = 0
        for sectionItems in items {
            if let index = sectionItems.firstIndex(of: identifier) { return offset + index }
            offset += sectionItems.count
        }
        return nil
    }

    /// The section's position; nil if absent.
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? {
        sections.firstIndex(of: identifier)
    }

    /// The item at a section and row, for the data sources.
    func item(at indexPath: IndexPath) -> ItemIdentifierType? {
        guard indexPath.count == 2, indexPath.section >= 0, indexPath.section < items.count,
              indexPath.item >= 0, indexPath.item < items[indexPath.section].count else { return nil }
        return items[indexPath.section][indexPath.item]
    }

    func location(of identifier: ItemIdentifierType) -> IndexPath? {
        for (section, sectionItems) in items.enumerated() {
            if let index = sectionItems.firstIndex(of: identifier) { return IndexPath(item: index, section: section) }
        }
        return nil
    }

    func itemCount(inSectionAt index: Int) -> Int { items[index].count }

    // MARK: Sections

    /// Adds sections at the end.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        for identifier in uniqueSections(identifiers) {
            sections.append(identifier)
            items.append([])
        }
    }

    /// Inserts sections before another.
    public mutating func insertSections(_ identifiers: [SectionIdentifierType], beforeSection toIdentifier: SectionIdentifierType) {
        guard let index = existingSection(toIdentifier) else { return }
        insertSections(identifiers, at: index)
    }

    /// Inserts sections after another.
    public mutating func insertSections(_ identifiers: [SectionIdentifierType], afterSection toIdentifier: SectionIdentifierType) {
        guard let index = existingSection(toIdentifier) else { return }
        insertSections(identifiers, at: index + 1)
    }

    private mutating func insertSections(_ identifiers: [SectionIdentifierType], at index: Int) {
        let unique = uniqueSections(identifiers)
        sections.insert(contentsOf: unique, at: index)
        items.insert(contentsOf: Array(repeating: [], count: unique.count), at: index)
    }

    /// Removes sections and their items.
    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) {
        for identifier in identifiers {
            guard let index = existingSection(identifier) else { continue }
            sections.remove(at: index)
            items.remove(at: index)
        }
    }

    /// Moves a section before another.
    public mutating func moveSection(_ identifier: SectionIdentifierType, beforeSection toIdentifier: SectionIdentifierType) {
        moveSection(identifier, relativeTo: toIdentifier, after: false)
    }

    /// Moves a section after another.
    public mutating func moveSection(_ identifier: SectionIdentifierType, afterSection toIdentifier: SectionIdentifierType) {
        moveSection(identifier, relativeTo: toIdentifier, after: true)
    }

    private mutating func moveSection(_ identifier: SectionIdentifierType, relativeTo other: SectionIdentifierType, after: Bool) {
        guard identifier != other, let from = existingSection(identifier), existingSection(other) != nil else { return }
        let moved = items.remove(at: from)
        sections.remove(at: from)
        let to = sections.firstIndex(of: other)! + (after ? 1 : 0)
        sections.insert(identifier, at: to)
        items.insert(moved, at: to)
    }

    /// Marks sections whose items' cells should be made again.
    public mutating func reloadSections(_ identifiers: [SectionIdentifierType]) {
        for identifier in identifiers where existingSection(identifier) != nil { reloadedSections.insert(identifier) }
    }

    // MARK: Items

    /// Adds items at the end of a section (the last one if none is named).
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil) {
        let section: Int?
        if let sectionIdentifier {
            section = existingSection(sectionIdentifier)
        } else if sections.isEmpty {
            report("appendItems: there is no section to append to")
            section = nil
        } else {
            section = sections.count - 1
        }
        guard let section else { return }
        items[section].append(contentsOf: uniqueItems(identifiers))
    }

    /// Inserts items before another item.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], beforeItem beforeIdentifier: ItemIdentifierType) {
        guard let at = existingItem(beforeIdentifier) else { return }
        items[at.section].insert(contentsOf: uniqueItems(identifiers), at: at.item)
    }

    /// Inserts items after another item.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], afterItem afterIdentifier: ItemIdentifierType) {
        guard let at = existingItem(afterIdentifier) else { return }
        items[at.section].insert(contentsOf: uniqueItems(identifiers), at: at.item + 1)
    }

    /// Removes items.
    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) {
        let doomed = Set(identifiers)
        for index in items.indices { items[index].removeAll { doomed.contains($0) } }
    }

    /// Removes every section and item.
    public mutating func deleteAllItems() {
        sections = []
        items = []
    }

    /// Moves an item before another.
    public mutating func moveItem(_ identifier: ItemIdentifierType, beforeItem toIdentifier: ItemIdentifierType) {
        moveItem(identifier, relativeTo: toIdentifier, after: false)
    }

    /// Moves an item after another.
    public mutating func moveItem(_ identifier: ItemIdentifierType, afterItem toIdentifier: ItemIdentifierType) {
        moveItem(identifier, relativeTo: toIdentifier, after: true)
    }

    private mutating func moveItem(_ identifier: ItemIdentifierType, relativeTo other: ItemIdentifierType, after: Bool) {
        guard identifier != other, let from = existingItem(identifier), existingItem(other) != nil else { return }
        items[from.section].remove(at: from.item)
        let to = location(of: other)!
        items[to.section].insert(identifier, at: to.item + (after ? 1 : 0))
    }

    /// Marks items whose cells should be made again.
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) {
        for identifier in identifiers where existingItem(identifier) != nil { reloadedItems.insert(identifier) }
    }

    /// Marks items whose cells should be configured again; without
    /// animation this is the same as ``reloadItems(_:)``.
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) {
        reloadItems(identifiers)
    }

    // MARK: Checks

    private func existingSection(_ identifier: SectionIdentifierType) -> Int? {
        guard let index = sections.firstIndex(of: identifier) else {
            report("there is no section \(identifier) in the snapshot")
            return nil
        }
        return index
    }

    private func existingItem(_ identifier: ItemIdentifierType) -> IndexPath? {
        guard let location = location(of: identifier) else {
            report("there is no item \(identifier) in the snapshot")
            return nil
        }
        return location
    }

    private func uniqueSections(_ identifiers: [SectionIdentifierType]) -> [SectionIdentifierType] {
        var seen = Set(sections), unique: [SectionIdentifierType] = []
        for identifier in identifiers {
            if seen.insert(identifier).inserted {
                unique.append(identifier)
            } else {
                report("the section identifier \(identifier) is already in the snapshot; the duplicate was left out")
            }
        }
        return unique
    }

    private func uniqueItems(_ identifiers: [ItemIdentifierType]) -> [ItemIdentifierType] {
        var seen = Set(itemIdentifiers), unique: [ItemIdentifierType] = []
        for identifier in identifiers {
            if seen.insert(identifier).inserted {
                unique.append(identifier)
            } else {
                report("the item identifier \(identifier) is already in the snapshot; the duplicate was left out")
            }
        }
        return unique
    }

    private func report(_ message: String) {
        reportFromAnyThread(Diagnostic(.invalidListUpdate, "NSDiffableDataSourceSnapshot: \(message)"))
    }
}

extension NSDiffableDataSourceSnapshot: Sendable where SectionIdentifierType: Sendable, ItemIdentifierType: Sendable {}

/// The changes that turn one snapshot into another, as a table or
/// collection view's batch update: index paths before the update for
/// deletions, reloads and the sources of moves, after it for the rest.
struct SnapshotDifference {
    var deletedSections = IndexSet()
    var insertedSections = IndexSet()
    var deletedItems: [IndexPath] = []
    var insertedItems: [IndexPath] = []
    var reloadedItems: [IndexPath] = []
    var moves: [(from: IndexPath, to: IndexPath)] = []
    /// Sections that stay but change order: updates cannot say that, so the
    /// view reloads instead.
    var reordersSections = false

    init<S, I>(from old: NSDiffableDataSourceSnapshot<S, I>, to new: NSDiffableDataSourceSnapshot<S, I>) {
        let newSections = Set(new.sectionIdentifiers), oldSections = Set(old.sectionIdentifiers)
        for (index, section) in old.sectionIdentifiers.enumerated() where !newSections.contains(section) { deletedSections.insert(index) }
        for (index, section) in new.sectionIdentifiers.enumerated() where !oldSections.contains(section) { insertedSections.insert(index) }
        let keptOld = old.sectionIdentifiers.filter { newSections.contains($0) }
        let keptNew = new.sectionIdentifiers.filter { oldSections.contains($0) }
        reordersSections = keptOld != keptNew

        var oldLocations: [I: IndexPath] = [:]
        for (section, identifier) in old.sectionIdentifiers.enumerated() {
            for (item, element) in old.itemIdentifiers(inSection: identifier).enumerated() {
                oldLocations[element] = IndexPath(item: item, section: section)
            }
        }
        var newLocations: [I: IndexPath] = [:]
        for (section, identifier) in new.sectionIdentifiers.enumerated() {
            for (item, element) in new.itemIdentifiers(inSection: identifier).enumerated() {
                newLocations[element] = IndexPath(item: item, section: section)
            }
        }
        for (element, location) in oldLocations where newLocations[element] == nil && !deletedSections.contains(location.section) {
            deletedItems.append(location)
        }
        for (element, location) in newLocations where oldLocations[element] == nil && !insertedSections.contains(location.section) {
            insertedItems.append(location)
        }
        // Items in both: those whose order among the kept items of their
        // section changed, or that changed section, move.
        for (sectionIndex, identifier) in new.sectionIdentifiers.enumerated() where !insertedSections.contains(sectionIndex) {
            let keptHere = new.itemIdentifiers(inSection: identifier).filter { oldLocations[$0] != nil }
            let oldSectionIdentifier = identifier
            let keptBefore = old.itemIdentifiers(inSection: oldSectionIdentifier).filter { newLocations[$0]?.section == sectionIndex }
            for (position, element) in keptHere.enumerated() {
                let from = oldLocations[element]!
                let movedSection = old.sectionIdentifiers[from.section] != identifier
                if movedSection || position >= keptBefore.count || keptBefore[position] != element {
                    moves.append((from, newLocations[element]!))
                }
            }
        }
        for element in new.reloadedItems {
            if let location = oldLocations[element], newLocations[element] != nil { reloadedItems.append(location) }
        }
        deletedItems.sort()
        insertedItems.sort()
    }

    /// Shows the difference in a table or collection view: one checked
    /// update of the sections and items that changed, or a reload when
    /// sections that stay changed order (an update cannot say that).
    @MainActor
    func show(in view: any ListUpdating, animated: Bool) {
        if reordersSections { return view.reloadData() }
        var update = ListUpdate()
        update.isAnimated = animated
        update.deletedSections = deletedSections
        update.insertedSections = insertedSections
        update.deletedRows = deletedItems
        update.insertedRows = insertedItems
        update.reloadedRows = reloadedItems
        update.moves = moves
        view.record { $0.formUnion(update) }
    }
}
