import Foundation

/// The sizes and spacings a flow layout asks its collection view's delegate
/// for, section by section or item by item. Every method defaults to the
/// layout's own property.
@preconcurrency @MainActor
public protocol UICollectionViewDelegateFlowLayout: UICollectionViewDelegate {
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        insetForSectionAt section: Int) -> UIEdgeInsets
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        minimumLineSpacingForSectionAt section: Int) -> CGFloat
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        minimumInteritemSpacingForSectionAt section: Int) -> CGFloat
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        referenceSizeForHeaderInSection section: Int) -> CGSize
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        referenceSizeForFooterInSection section: Int) -> CGSize
}

extension UICollectionViewDelegateFlowLayout {
    private func flow(_ layout: UICollectionViewLayout) -> UICollectionViewFlowLayout? { layout as? UICollectionViewFlowLayout }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               sizeForItemAt indexPath: IndexPath) -> CGSize { flow(collectionViewLayout)?.itemSize ?? .zero }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               insetForSectionAt section: Int) -> UIEdgeInsets { flow(collectionViewLayout)?.sectionInset ?? .zero }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               minimumLineSpacingForSectionAt section: Int) -> CGFloat { flow(collectionViewLayout)?.minimumLineSpacing ?? 0 }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               minimumInteritemSpacingForSectionAt section: Int) -> CGFloat { flow(collectionViewLayout)?.minimumInteritemSpacing ?? 0 }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               referenceSizeForHeaderInSection section: Int) -> CGSize { flow(collectionViewLayout)?.headerReferenceSize ?? .zero }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               referenceSizeForFooterInSection section: Int) -> CGSize { flow(collectionViewLayout)?.footerReferenceSize ?? .zero }
}

/// Items in lines, one line after the other: rows that fill the width and
/// scroll vertically, or columns that fill the height and scroll
/// horizontally.
///
/// How a line is filled, as Apple's *Collection View Programming Guide*
/// ("Using the Flow Layout") describes it: items go into the line while
/// they fit with at least ``minimumInteritemSpacing`` between them; the
/// space left over is then spread evenly between the line's items, so the
/// first touches the section's leading inset and the last its trailing one.
/// Two cases developers have reported (Stack Overflow, "How do you
/// determine spacing between cells in UICollectionView flowLayout"): the
/// last line of a section is not spread but packed from the leading edge
/// at the minimum spacing, and an item alone on any other line is centred.
/// Items are centred across the line, which is as tall as its tallest item.
///
/// Right to left: a vertical flow layout fills its lines from the right
/// (UIKit's flow layout has followed the interface's direction since iOS 9,
/// without flipping the collection view's coordinates:
/// ``UICollectionViewLayout/flipsHorizontallyInOppositeLayoutDirection`` stays
/// false). A horizontal one keeps its columns from the left unless a
/// subclass returns true from that property, when the collection view
/// mirrors the whole layout (the usual way to make a right-to-left carousel).
@preconcurrency @MainActor
open class UICollectionViewFlowLayout: UICollectionViewLayout {
    /// The direction the content scrolls.
    public enum ScrollDirection: Int, Sendable {
        case vertical
        case horizontal
    }

    /// Every item's size unless the delegate says otherwise. Default 50 × 50.
    open var itemSize = CGSize(width: 50, height: 50) { didSet { invalidateLayout() } }
    /// The least space between lines. Default 10.
    open var minimumLineSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// The least space between items in a line. Default 10.
    open var minimumInteritemSpacing: CGFloat = 10 { didSet { invalidateLayout() } }
    /// Space around each section's items (inside its header and footer). Default zero.
    open var sectionInset = UIEdgeInsets.zero { didSet { invalidateLayout() } }
    /// Default `.vertical`.
    open var scrollDirection = ScrollDirection.vertical { didSet { invalidateLayout() } }
    /// The size of each section's header: its height when scrolling
    /// vertically, its width when scrolling horizontally. Default zero: none.
    open var headerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }
    /// The size of each section's footer, as ``headerReferenceSize``.
    open var footerReferenceSize = CGSize.zero { didSet { invalidateLayout() } }

    /// Self-sizing cells: zero (the default) lays items out at their
    /// ``itemSize`` or the delegate's sizes; any other size is what an item
    /// is assumed to be until its cell has been shown and measured (its
    /// ``UICollectionReusableView/preferredLayoutAttributesFitting(_:)``),
    /// and the delegate's sizes are not asked for. Items off screen keep the
    /// estimate, so the content size is an estimate until they have shown.
    open var estimatedItemSize = CGSize.zero { didSet { invalidateLayout() } }

    /// The estimate that asks every cell for its size without a size to
    /// assume (UIKit's `UICollectionViewFlowLayoutAutomaticSize`, whose value
    /// UIKit does not document). Until a cell has been measured its item is
    /// assumed to be the size of the item measured last, or ``itemSize``
    /// before any: our choice, as UIKit keeps its own estimate.
    public static let automaticSize = CGSize(width: CGFloat.greatestFiniteMagnitude, height: CGFloat.greatestFiniteMagnitude)

    /// The sizes cells preferred, by item, while self-sizing.
    private var measuredSizes: [IndexPath: CGSize] = [:]
    private var lastMeasuredSize: CGSize?

    override var sizesItemsByContent: Bool { estimatedItemSize != .zero }

    /// With self-sizing on, a cell that prefers another size than the one
    /// laid out needs a new layout.
    open override func shouldInvalidateLayout(forPreferredLayoutAttributes preferredAttributes: UICollectionViewLayoutAttributes,
                                              withOriginalAttributes originalAttributes: UICollectionViewLayoutAttributes) -> Bool {
        sizesItemsByContent && preferredAttributes.representedElementCategory == .cell
            && preferredAttributes.size != originalAttributes.size
    }

    override func adoptPreferredAttributes(_ attributes: UICollectionViewLayoutAttributes) {
        let size = attributes.size
        guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else { return }
        measuredSizes[attributes.indexPath] = size
        lastMeasuredSize = size
        invalidateLayout()
    }

    override func collectionViewDidReloadData() {
        measuredSizes = [:]
    }

    /// The size an item is laid out at: measured, estimated, or the delegate's or ``itemSize``.
    private func size(ofItemAt indexPath: IndexPath, in collectionView: UICollectionView,
                      delegate: (any UICollectionViewDelegateFlowLayout)?) -> CGSize {
        guard sizesItemsByContent else {
            return delegate?.collectionView(collectionView, layout: self, sizeForItemAt: indexPath) ?? itemSize
        }
        if let measured = measuredSizes[indexPath] { return measured }
        if estimatedItemSize == Self.automaticSize { return lastMeasuredSize ?? itemSize }
        return estimatedItemSize
    }

    private var store = LayoutAttributesStore()
    private var contentSize = CGSize.zero

    open override var collectionViewContentSize: CGSize { contentSize }

    open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        store.elements(in: rect)
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        store.item(at: indexPath)
    }

    open override func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        store.supplementary(ofKind: elementKind, at: indexPath)
    }

    /// Lays every section out along the scrolling axis. The work is done
    /// as if scrolling vertically; horizontal scrolling swaps the axes on
    /// the way in and out.
    open override func prepare() {
        store = LayoutAttributesStore()
        guard let collectionView else {
            contentSize = .zero
            return
        }
        let horizontal = scrollDirection == .horizontal
        func swap(_ size: CGSize) -> CGSize { horizontal ? CGSize(width: size.height, height: size.width) : size }
        func swap(_ rect: CGRect) -> CGRect {
            horizontal ? CGRect(x: rect.minY, y: rect.minX, width: rect.height, height: rect.width) : rect
        }
        func swap(_ insets: UIEdgeInsets) -> UIEdgeInsets {
            horizontal ? UIEdgeInsets(top: insets.left, left: insets.top, bottom: insets.right, right: insets.bottom) : insets
        }
        let delegate = collectionView.delegate as? any UICollectionViewDelegateFlowLayout
        let width = swap(collectionView.bounds.size).width
        var y: CGFloat = 0
        for section in 0..<collectionView.numberOfSections {
            let header = swap(delegate?.collectionView(collectionView, layout: self, referenceSizeForHeaderInSection: section) ?? headerReferenceSize).height
            if header > 0 {
                let attributes = UICollectionViewLayoutAttributes(forSupplementaryViewOfKind: UICollectionView.elementKindSectionHeader,
                                                                  with: IndexPath(item: 0, section: section))
                attributes.frame = swap(CGRect(x: 0, y: y, width: width, height: header))
                store.supplementary.append(attributes)
                y += header
            }
            let inset = swap(delegate?.collectionView(collectionView, layout: self, insetForSectionAt: section) ?? sectionInset)
            let lineSpacing = delegate?.collectionView(collectionView, layout: self, minimumLineSpacingForSectionAt: section) ?? minimumLineSpacing
            let itemSpacing = delegate?.collectionView(collectionView, layout: self, minimumInteritemSpacingForSectionAt: section) ?? minimumInteritemSpacing
            let count = collectionView.numberOfItems(inSection: section)
            var sizes: [CGSize] = []
            sizes.reserveCapacity(count)
            for item in 0..<count {
                let size = swap(size(ofItemAt: IndexPath(item: item, section: section), in: collectionView, delegate: delegate))
                sizes.append(CGSize(width: max(0, size.width.isFinite ? size.width : 0), height: max(0, size.height.isFinite ? size.height : 0)))
            }
            y += inset.top
            let available = max(0, width - inset.left - inset.right)
            var frames: [CGRect] = []
            frames.reserveCapacity(count)
            var lineStart = 0
            while lineStart < count {
                // Fill the line: always at least one item, then while the next one fits.
                var lineEnd = lineStart + 1
                var used = sizes[lineStart].width
                while lineEnd < count && used + itemSpacing + sizes[lineEnd].width <= available {
                    used += itemSpacing + sizes[lineEnd].width
                    lineEnd += 1
                }
                var lineHeight: CGFloat = 0
                var itemsWidth: CGFloat = 0
                for index in lineStart..<lineEnd {
                    lineHeight = max(lineHeight, sizes[index].height)
                    itemsWidth += sizes[index].width
                }
                let itemsInLine = lineEnd - lineStart
                let isLastLine = lineEnd == count
                var x = inset.left
                var gap = itemSpacing
                if !isLastLine {
                    if itemsInLine == 1 {
                        x = inset.left + (available - itemsWidth) / 2
                    } else {
                        gap = (available - itemsWidth) / CGFloat(itemsInLine - 1)
                    }
                }
                for index in lineStart..<lineEnd {
                    let size = sizes[index]
                    frames.append(CGRect(x: x, y: y + (lineHeight - size.height) / 2, width: size.width, height: size.height))
                    x += size.width + gap
                }
                y += lineHeight
                if !isLastLine { y += lineSpacing }
                lineStart = lineEnd
            }
            y += inset.bottom
            var attributesOfSection: [UICollectionViewLayoutAttributes] = []
            attributesOfSection.reserveCapacity(count)
            for (item, frame) in frames.enumerated() {
                let attributes = UICollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
                attributes.frame = swap(frame)
                attributesOfSection.append(attributes)
            }
            store.items.append(attributesOfSection)
            let footer = swap(delegate?.collectionView(collectionView, layout: self, referenceSizeForFooterInSection: section) ?? footerReferenceSize).height
            if footer > 0 {
                let attributes = UICollectionViewLayoutAttributes(forSupplementaryViewOfKind: UICollectionView.elementKindSectionFooter,
                                                                  with: IndexPath(item: 0, section: section))
                attributes.frame = swap(CGRect(x: 0, y: y, width: width, height: footer))
                store.supplementary.append(attributes)
                y += footer
            }
        }
        contentSize = swap(CGSize(width: width, height: y))
        if !horizontal && collectionView.isRightToLeft && !flipsHorizontallyInOppositeLayoutDirection {
            store.mirrorHorizontally(within: width)
        }
    }
}
