import Foundation

/// One dimension of a compositional layout's item or group: a fraction of
/// its container's width or height, a number of points, or an estimate
/// (used as given: without Auto Layout nothing measures the cell).
public struct NSCollectionLayoutDimension: Sendable, Equatable {
    enum Kind: Equatable, Sendable {
        case fractionalWidth, fractionalHeight, absolute, estimated
    }
    let kind: Kind
    let value: CGFloat

    public static func fractionalWidth(_ fractionalWidth: CGFloat) -> Self { Self(kind: .fractionalWidth, value: fractionalWidth) }
    public static func fractionalHeight(_ fractionalHeight: CGFloat) -> Self { Self(kind: .fractionalHeight, value: fractionalHeight) }
    public static func absolute(_ absoluteDimension: CGFloat) -> Self { Self(kind: .absolute, value: absoluteDimension) }
    public static func estimated(_ estimatedDimension: CGFloat) -> Self { Self(kind: .estimated, value: estimatedDimension) }

    public var isFractionalWidth: Bool { kind == .fractionalWidth }
    public var isFractionalHeight: Bool { kind == .fractionalHeight }
    public var isAbsolute: Bool { kind == .absolute }
    public var isEstimated: Bool { kind == .estimated }
    public var dimension: CGFloat { value }

    /// Points, within a container of `container`'s size.
    func resolved(in container: CGSize) -> CGFloat {
        switch kind {
        case .fractionalWidth: container.width * value
        case .fractionalHeight: container.height * value
        case .absolute, .estimated: value
        }
    }
}

/// A width and a height.
public struct NSCollectionLayoutSize: Sendable, Equatable {
    public let widthDimension: NSCollectionLayoutDimension
    public let heightDimension: NSCollectionLayoutDimension

    public init(widthDimension width: NSCollectionLayoutDimension, heightDimension height: NSCollectionLayoutDimension) {
        widthDimension = width
        heightDimension = height
    }

    func resolved(in container: CGSize) -> CGSize {
        CGSize(width: widthDimension.resolved(in: container), height: heightDimension.resolved(in: container))
    }
}

/// Space between a group's items: exactly this much, or at least this
/// much with the rest spread between them.
public struct NSCollectionLayoutSpacing: Sendable, Equatable {
    let value: CGFloat
    let isFlexible: Bool

    public static func fixed(_ fixedSpacing: CGFloat) -> Self { Self(value: fixedSpacing, isFlexible: false) }
    public static func flexible(_ flexibleSpacing: CGFloat) -> Self { Self(value: flexibleSpacing, isFlexible: true) }

    public var spacing: CGFloat { value }
    public var isFixedSpacing: Bool { !isFlexible }
    public var isFlexibleSpacing: Bool { isFlexible }
}

/// Insets that follow the reading direction (left to right here).
public struct NSDirectionalEdgeInsets: Hashable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat

    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }

    public static let zero = NSDirectionalEdgeInsets()
}

/// One item of a compositional layout: a size in its group, and insets
/// that shrink the cell inside that size.
@preconcurrency @MainActor
open class NSCollectionLayoutItem {
    public let layoutSize: NSCollectionLayoutSize
    /// Space kept inside the item's size around its cell. Default zero.
    open var contentInsets = NSDirectionalEdgeInsets.zero

    public init(layoutSize: NSCollectionLayoutSize) {
        self.layoutSize = layoutSize
    }

    /// How many data items this element shows: one for an item.
    var leafCount: Int { 1 }

    /// Places the element's leaves in `frame`, appending their frames.
    func place(in frame: CGRect, into frames: inout [CGRect]) {
        frames.append(CGRect(x: frame.minX + contentInsets.leading, y: frame.minY + contentInsets.top,
                             width: max(0, frame.width - contentInsets.leading - contentInsets.trailing),
                             height: max(0, frame.height - contentInsets.top - contentInsets.bottom)))
    }
}

/// Items side by side (horizontal) or one above the other (vertical).
@preconcurrency @MainActor
open class NSCollectionLayoutGroup: NSCollectionLayoutItem {
    public let subitems: [NSCollectionLayoutItem]
    let isHorizontal: Bool
    /// With a count, the one subitem is repeated that many times, sized to fill the group.
    let repeatCount: Int?
    /// Space between the group's items. Default nil: none.
    open var interItemSpacing: NSCollectionLayoutSpacing?

    init(layoutSize: NSCollectionLayoutSize, subitems: [NSCollectionLayoutItem], isHorizontal: Bool, count: Int?) {
        self.subitems = subitems
        self.isHorizontal = isHorizontal
        repeatCount = count
        super.init(layoutSize: layoutSize)
    }

    /// A row of `subitems`, each sized within the group.
    public static func horizontal(layoutSize: NSCollectionLayoutSize, subitems: [NSCollectionLayoutItem]) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(layoutSize: layoutSize, subitems: subitems, isHorizontal: true, count: nil)
    }

    /// A row of `count` copies of `subitem`, their widths sharing the group's width.
    public static func horizontal(layoutSize: NSCollectionLayoutSize, subitem: NSCollectionLayoutItem, count: Int) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(layoutSize: layoutSize, subitems: [subitem], isHorizontal: true, count: max(1, count))
    }

    /// A column of `subitems`.
    public static func vertical(layoutSize: NSCollectionLayoutSize, subitems: [NSCollectionLayoutItem]) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(layoutSize: layoutSize, subitems: subitems, isHorizontal: false, count: nil)
    }

    /// A column of `count` copies of `subitem`, their heights sharing the group's height.
    public static func vertical(layoutSize: NSCollectionLayoutSize, subitem: NSCollectionLayoutItem, count: Int) -> NSCollectionLayoutGroup {
        NSCollectionLayoutGroup(layoutSize: layoutSize, subitems: [subitem], isHorizontal: false, count: max(1, count))
    }

    override var leafCount: Int {
        if let repeatCount { return repeatCount * subitems[0].leafCount }
        var total = 0
        for subitem in subitems { total += subitem.leafCount }
        return total
    }

    override func place(in frame: CGRect, into frames: inout [CGRect]) {
        let inner = CGRect(x: frame.minX + contentInsets.leading, y: frame.minY + contentInsets.top,
                           width: max(0, frame.width - contentInsets.leading - contentInsets.trailing),
                           height: max(0, frame.height - contentInsets.top - contentInsets.bottom))
        let spacing = interItemSpacing?.spacing ?? 0
        var elements: [NSCollectionLayoutItem] = []
        var sizes: [CGSize] = []
        if let repeatCount {
            let length = ((isHorizontal ? inner.width : inner.height) - spacing * CGFloat(repeatCount - 1)) / CGFloat(repeatCount)
            let size = isHorizontal ? CGSize(width: length, height: subitems[0].layoutSize.resolved(in: inner.size).height)
                                    : CGSize(width: subitems[0].layoutSize.resolved(in: inner.size).width, height: length)
            elements = Array(repeating: subitems[0], count: repeatCount)
            sizes = Array(repeating: size, count: repeatCount)
        } else {
            elements = subitems
            for subitem in subitems { sizes.append(subitem.layoutSize.resolved(in: inner.size)) }
        }
        var gap = spacing
        if interItemSpacing?.isFlexible == true, elements.count > 1 {
            var used: CGFloat = 0
            for size in sizes { used += isHorizontal ? size.width : size.height }
            gap = max(spacing, ((isHorizontal ? inner.width : inner.height) - used) / CGFloat(elements.count - 1))
        }
        var cursor = isHorizontal ? inner.minX : inner.minY
        for (index, element) in elements.enumerated() {
            let size = sizes[index]
            let origin = isHorizontal ? CGPoint(x: cursor, y: inner.minY) : CGPoint(x: inner.minX, y: cursor)
            element.place(in: CGRect(origin: origin, size: size), into: &frames)
            cursor += (isHorizontal ? size.width : size.height) + gap
        }
    }
}

/// A section of a compositional layout: its group repeated until the
/// section's items run out, one group after another down the content.
@preconcurrency @MainActor
open class NSCollectionLayoutSection {
    public let group: NSCollectionLayoutGroup
    /// Space around the section's groups. Default zero.
    open var contentInsets = NSDirectionalEdgeInsets.zero
    /// Space between successive groups. Default 0.
    open var interGroupSpacing: CGFloat = 0

    public init(group: NSCollectionLayoutGroup) {
        self.group = group
    }
}

/// What a section provider is told about where its section goes.
@preconcurrency @MainActor
public protocol NSCollectionLayoutEnvironment {
    /// The size of the area the section is laid out in.
    var container: any NSCollectionLayoutContainer { get }
}

/// The area a section is laid out in.
@preconcurrency @MainActor
public protocol NSCollectionLayoutContainer {
    var contentSize: CGSize { get }
    var effectiveContentSize: CGSize { get }
}

struct LayoutContainer: NSCollectionLayoutContainer, NSCollectionLayoutEnvironment {
    let contentSize: CGSize
    var effectiveContentSize: CGSize { contentSize }
    var container: any NSCollectionLayoutContainer { self }
}

/// A layout built from sections of groups of items, each sized absolutely
/// or as a fraction of its container: lists and grids without a subclass.
/// The content scrolls vertically; groups repeat down each section until
/// its items run out (the last group may be partly filled). Estimated
/// dimensions are used as given, and boundary supplementary items,
/// orthogonal scrolling and list configurations are not built yet.
@preconcurrency @MainActor
open class UICollectionViewCompositionalLayout: UICollectionViewLayout {
    /// Gives the layout of a section.
    public typealias SectionProvider = @MainActor (Int, any NSCollectionLayoutEnvironment) -> NSCollectionLayoutSection?

    private let sectionProvider: SectionProvider
    private var store = LayoutAttributesStore()
    private var contentSize = CGSize.zero

    /// Every section laid out as `section`.
    public init(section: NSCollectionLayoutSection) {
        sectionProvider = { _, _ in section }
        super.init()
    }

    /// Each section laid out as `sectionProvider` says.
    public init(sectionProvider: @escaping SectionProvider) {
        self.sectionProvider = sectionProvider
        super.init()
    }

    open override var collectionViewContentSize: CGSize { contentSize }

    open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        store.elements(in: rect)
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        store.item(at: indexPath)
    }

    open override func prepare() {
        store = LayoutAttributesStore()
        guard let collectionView else {
            contentSize = .zero
            return
        }
        let bounds = collectionView.bounds.size
        var y: CGFloat = 0
        for sectionIndex in 0..<collectionView.numberOfSections {
            let count = collectionView.numberOfItems(inSection: sectionIndex)
            let environment = LayoutContainer(contentSize: bounds)
            var frames: [CGRect] = []
            if let section = sectionProvider(sectionIndex, environment) {
                let insets = section.contentInsets
                let container = CGSize(width: max(0, bounds.width - insets.leading - insets.trailing), height: bounds.height)
                let groupSize = section.group.layoutSize.resolved(in: container)
                let perGroup = max(1, section.group.leafCount)
                y += insets.top
                var placed = 0
                while placed < count {
                    section.group.place(in: CGRect(x: insets.leading, y: y, width: groupSize.width, height: groupSize.height), into: &frames)
                    placed += perGroup
                    y += groupSize.height
                    if placed < count { y += section.interGroupSpacing }
                }
                y += insets.bottom
            }
            var attributesOfSection: [UICollectionViewLayoutAttributes] = []
            for item in 0..<min(count, frames.count) {
                let attributes = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: sectionIndex))
                attributes.frame = frames[item]
                attributesOfSection.append(attributes)
            }
            store.items.append(attributesOfSection)
        }
        contentSize = CGSize(width: bounds.width, height: y)
    }
}
