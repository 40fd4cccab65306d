import Foundation

/// Where one cell or supplementary view of a collection view goes.
@preconcurrency @MainActor
open class UICollectionViewLayoutAttributes {
    /// What kind of view the attributes place.
    public enum Category: UInt, Sendable {
        case cell
        case supplementaryView
        case decorationView
    }

    /// The item (or, for a supplementary view, the position it belongs to).
    open var indexPath: IndexPath
    /// The view's frame in the collection view's content.
    open var frame: CGRect
    /// Hidden views are not shown.
    open var isHidden = false
    /// The view's alpha.
    open var alpha: CGFloat = 1
    /// The view's order among its siblings: higher in front.
    open var zIndex = 0
    public let representedElementCategory: Category
    /// The supplementary view's kind (such as ``UICollectionView/elementKindSectionHeader``); nil for a cell.
    public let representedElementKind: String?

    open var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }

    open var size: CGSize {
        get { frame.size }
        set { frame.size = newValue }
    }

    /// Attributes for the cell of an item.
    public init(forCellWith indexPath: IndexPath) {
        self.indexPath = indexPath
        frame = .zero
        representedElementCategory = .cell
        representedElementKind = nil
    }

    /// Attributes for a supplementary view of `elementKind`.
    public init(forSupplementaryViewOfKind elementKind: String, with indexPath: IndexPath) {
        self.indexPath = indexPath
        frame = .zero
        representedElementCategory = .supplementaryView
        representedElementKind = elementKind
    }

    private init(copying other: UICollectionViewLayoutAttributes) {
        indexPath = other.indexPath
        frame = other.frame
        isHidden = other.isHidden
        alpha = other.alpha
        zIndex = other.zIndex
        representedElementCategory = other.representedElementCategory
        representedElementKind = other.representedElementKind
    }

    /// A copy with the same values (UIKit's attributes are `NSCopying`;
    /// layouts copy them before changing them).
    open func copy() -> Any {
        UICollectionViewLayoutAttributes(copying: self)
    }
}

/// Decides where a collection view's items go. Subclass it for a custom
/// layout: work out the attributes in ``prepare()``, give the content's size
/// in ``collectionViewContentSize``, and answer
/// ``layoutAttributesForElements(in:)`` and ``layoutAttributesForItem(at:)``.
@preconcurrency @MainActor
open class UICollectionViewLayout {
    /// The collection view using this layout.
    open internal(set) weak var collectionView: UICollectionView?

    public init() {}

    /// Works out the layout; called before the collection view asks for
    /// attributes, and again after ``UICollectionViewLayout/invalidateLayout()``.
    open func prepare() {}

    /// The size of all the content.
    open var collectionViewContentSize: CGSize { .zero }

    /// The attributes of every cell and supplementary view in `rect`.
    open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { nil }

    /// The attributes of one item's cell.
    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

    /// The attributes of one supplementary view.
    open func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

    /// Where an item inserted by an update starts from, in the layout's
    /// coordinates: nil (the default) fades the item in where it goes.
    open func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

    /// Where an item deleted by an update ends, in the layout's
    /// coordinates: nil (the default) fades the item out where it was.
    open func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }

    /// Whether the collection view mirrors this layout's horizontal
    /// coordinates when its direction is not ``developmentLayoutDirection``:
    /// then the layout works left to right as designed and the collection
    /// view shows item `x` at `contentWidth - x - width` (and mirrors the
    /// rectangles and points it asks about). False by default, as in UIKit;
    /// override it to return true for a custom layout that should flip.
    open var flipsHorizontallyInOppositeLayoutDirection: Bool { false }

    /// The direction the layout was designed for: left to right.
    open var developmentLayoutDirection: UIUserInterfaceLayoutDirection { .leftToRight }

    /// Whether a change of the collection view's bounds needs a new layout;
    /// by default, when its size changes.
    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool {
        guard let collectionView else { return false }
        return newBounds.size != collectionView.bounds.size
    }

    /// Marks the layout stale: it is prepared again before the next use.
    open func invalidateLayout() {
        needsPrepare = true
        collectionView?.setNeedsLayout()
    }

    /// Whether the attributes a cell prefers (its
    /// ``UICollectionReusableView/preferredLayoutAttributesFitting(_:)``)
    /// need a new layout. By default, no; a flow layout that sizes items by
    /// their content says yes when the size differs.
    open func shouldInvalidateLayout(forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
                                     withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes) -> Bool {
        false
    }

    /// Whether the collection view asks each cell it shows for its
    /// preferred attributes. Custom layouts here do not (UIKit asks for
    /// every layout; see docs/lists.md).
    var sizesItemsByContent: Bool { false }

    /// Takes preferred attributes the layout said need a new layout (UIKit
    /// passes them through an invalidation context), and invalidates it.
    func adoptPreferredAttributes(_ attributes: UICollectionViewLayoutAttributes) {}

    /// The collection view read its data again: what the layout kept about
    /// particular items no longer applies.
    func collectionViewDidReloadData() {}

    /// Whether ``prepare()`` must run before attributes are read.
    var needsPrepare = true

    func prepareIfNeeded() {
        guard needsPrepare else { return }
        needsPrepare = false
        prepare()
    }
}

/// The attributes a layout keeps for every element, searched by rectangle.
/// Frames are kept in item order; a rectangle query walks them all, which is
/// fine for the thousands of items collection views usually show.
@MainActor
struct LayoutAttributesStore {
    var items: [[UICollectionViewLayoutAttributes]] = []
    var supplementary: [UICollectionViewLayoutAttributes] = []

    func elements(in rect: CGRect) -> [UICollectionViewLayoutAttributes] {
        var result: [UICollectionViewLayoutAttributes] = []
        for attributes in supplementary where attributes.frame.intersects(rect) { result.append(attributes) }
        for section in items {
            for attributes in section where attributes.frame.intersects(rect) { result.append(attributes) }
        }
        return result
    }

    /// Mirrors every frame left to right within `width`.
    func mirrorHorizontally(within width: CGFloat) {
        for attributes in supplementary { attributes.frame.origin.x = width - attributes.frame.maxX }
        for section in items {
            for attributes in section { attributes.frame.origin.x = width - attributes.frame.maxX }
        }
    }

    func item(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        guard indexPath.count == 2, indexPath.section >= 0, indexPath.section < items.count,
              indexPath.item >= 0, indexPath.item < items[indexPath.section].count else { return nil }
        return items[indexPath.section][indexPath.item]
    }

    func supplementary(ofKind kind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        for attributes in supplementary where attributes.representedElementKind == kind && attributes.indexPath == indexPath {
            return attributes
        }
        return nil
    }
}
