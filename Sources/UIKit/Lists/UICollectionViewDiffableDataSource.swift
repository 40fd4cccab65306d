import Foundation

/// A collection view's data source that holds the data as a snapshot of
/// identifiers, as ``UITableViewDiffableDataSource`` does for tables. It
/// makes itself the collection view's data source; keep a reference to it.
@preconcurrency @MainActor
open class UICollectionViewDiffableDataSource<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable>: UICollectionViewDataSource {
    /// Makes the cell for an item, usually by dequeuing one.
    public typealias CellProvider = @MainActor (UICollectionView, IndexPath, ItemIdentifierType) -> UICollectionViewCell?
    /// Makes a supplementary view.
    public typealias SupplementaryViewProvider = @MainActor (UICollectionView, String, IndexPath) -> UICollectionReusableView?

    private weak var collectionView: UICollectionView?
    private let cellProvider: CellProvider
    private var current = NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>()

    /// Makes the section headers and footers; nil gives plain empty views.
    open var supplementaryViewProvider: SupplementaryViewProvider?

    /// Becomes `collectionView`'s data source.
    public init(collectionView: UICollectionView, cellProvider: @escaping CellProvider) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        collectionView.dataSource = self
    }

    /// A copy of the data shown now.
    open func snapshot() -> NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType> {
        current
    }

    /// Shows `snapshot`: the collection view is updated by the differences
    /// from the current one (or reloaded, when sections changed order),
    /// animated as the collection view animates updates when
    /// `animatingDifferences` is true; `completion` runs once it is shown
    /// (at the animation's end).
    open func apply(_ snapshot: NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>,
                    animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {
        let difference = SnapshotDifference(from: current, to: snapshot)
        current = snapshot
        guard let collectionView else { completion?(); return }
        difference.show(in: collectionView, animated: animatingDifferences)
        collectionView.whenUpdateShown { _ in completion?() }
    }

    /// The item shown at `indexPath`; nil if there is none.
    open func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? {
        current.item(at: indexPath)
    }

    /// Where an item is shown; nil if the current snapshot does not have it.
    open func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? {
        current.location(of: itemIdentifier)
    }

    open func numberOfSections(in collectionView: UICollectionView) -> Int {
        current.numberOfSections
    }

    open func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        section < current.numberOfSections ? current.itemCount(inSectionAt: section) : 0
    }

    /// The provider's cell; a provider that returns nil is reported and the item gets an empty cell.
    open func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        if let item = current.item(at: indexPath), let cell = cellProvider(collectionView, indexPath, item) { return cell }
        collectionView.reportListProblem("the cell provider returned no cell for item \(indexPath.item) in section \(indexPath.section); an empty cell was used")
        return UICollectionViewCell()
    }

    open func collectionView(_ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                             at indexPath: IndexPath) -> UICollectionReusableView {
        supplementaryViewProvider?(collectionView, kind, indexPath) ?? UICollectionReusableView()
    }
}
