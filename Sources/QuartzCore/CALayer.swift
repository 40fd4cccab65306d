/// What a layer asks of the object that owns it. A `UIView` is the delegate
/// of its own layer.
@MainActor
public protocol CALayerDelegate: AnyObject {
    /// Called by ``CALayer/display()`` to let the delegate provide the layer's content.
    func display(_ layer: CALayer)
}

extension CALayerDelegate {
    public func display(_ layer: CALayer) {}
}

/// A node of the layer tree: geometry, visibility and content. Layers draw;
/// they do not handle events (that is the view's job).
///
/// Geometry follows Core Animation: `position` is where the `anchorPoint`
/// (a unit point of `bounds`) sits in the superlayer, `transform` turns the
/// layer about its anchor point, and `frame` is derived from all three.
///
/// Setting geometry to a non-finite value (NaN or infinity) is refused: the
/// layer keeps its previous value, as a layer in an invalid place would
/// poison every conversion and hit test below it. (Core Animation raises
/// `CALayerInvalidGeometry` instead.)
@MainActor
open class CALayer {
    // What every hit test reads comes first, so that it shares the object's
    // first cache lines: in a tree of thousands of views most of the layers a
    // hit test visits are not in the cache. Swift lays a class's stored
    // properties out in the order they are declared.
    @usableFromInline @exclusivity(unchecked) final var storedBounds = CGRect.zero
    @usableFromInline @exclusivity(unchecked) final var storedPosition = CGPoint.zero
    @usableFromInline @exclusivity(unchecked) final var storedAnchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// Nil for the identity, which nearly every layer has; kept out of line
    /// so that the transform's 200-odd bytes do not spread the hot fields apart.
    @usableFromInline @exclusivity(unchecked) final var nonIdentityTransform: LayerTransform?
    @usableFromInline @exclusivity(unchecked) final var hiddenFlag = false
    @usableFromInline @exclusivity(unchecked) final var storedOpacity: Float = 1
    @exclusivity(unchecked) private var storedSublayers: [CALayer] = []

    public required init() {}

    isolated deinit {
        for layer in storedSublayers { layer.superlayer = nil }
    }

    // MARK: Geometry

    public var bounds: CGRect {
        get { storedBounds }
        set { if newValue.isFinite { storedBounds = newValue } }
    }

    public var position: CGPoint {
        get { storedPosition }
        set { if newValue.isFinite { storedPosition = newValue } }
    }

    public var anchorPoint: CGPoint {
        get { storedAnchorPoint }
        set { if newValue.isFinite { storedAnchorPoint = newValue } }
    }

    public var transform: CATransform3D {
        get { nonIdentityTransform?.transform ?? CATransform3DIdentity }
        set {
            guard newValue.isFinite else { return }
            nonIdentityTransform = CATransform3DIsIdentity(newValue) ? nil : LayerTransform(newValue)
        }
    }

    public var zPosition: CGFloat = 0 {
        didSet { if !zPosition.isFinite { zPosition = oldValue } }
    }

    public func affineTransform() -> CGAffineTransform { nonIdentityTransform?.affine ?? .identity }

    public func setAffineTransform(_ m: CGAffineTransform) {
        transform = CATransform3DMakeAffineTransform(m)
    }

    /// The layer's extent in its superlayer's coordinates: the bounding box of
    /// its transformed bounds. Setting it sets `position` and `bounds.size`
    /// so that reading it back gives the rectangle set: under a transform the
    /// bounds get the frame's size taken back through the transform (400 wide
    /// for a 100-wide frame under a scale of 0.25), and the position centres
    /// the transformed bounds on the frame. Under a rotation that is not a
    /// multiple of 90°, no bounds have the frame as their bounding box; the
    /// bounds then get the bounding box of the frame turned back, and the
    /// frame read back is larger than the one set, around the same centre. A
    /// transform that cannot be inverted keeps the bounds' size and only
    /// moves the layer's centre to the frame's.
    public var frame: CGRect {
        get {
            if nonIdentityTransform == nil {
                return CGRect(
                    x: storedPosition.x - storedAnchorPoint.x * storedBounds.width,
                    y: storedPosition.y - storedAnchorPoint.y * storedBounds.height,
                    width: storedBounds.width, height: storedBounds.height)
            }
            return CGRect(boundingCorners: storedBounds.corners.map(convertToSuperlayer))
        }
        set {
            guard newValue.isFinite else { return }
            let frame = newValue.standardized
            guard let transform = nonIdentityTransform else {
                storedBounds.size = frame.size
                storedPosition = CGPoint(
                    x: frame.minX + storedAnchorPoint.x * frame.width,
                    y: frame.minY + storedAnchorPoint.y * frame.height)
                return
            }
            if let inverse = transform.inverseAffine {
                let linearInverse = CGAffineTransform(a: inverse.a, b: inverse.b, c: inverse.c, d: inverse.d, tx: 0, ty: 0)
                storedBounds.size = CGRect(origin: .zero, size: frame.size).applying(linearInverse).size
            }
            let placed = self.frame
            storedPosition.x += frame.midX - placed.midX
            storedPosition.y += frame.midY - placed.midY
        }
    }

    // MARK: Appearance

    public final var isHidden: Bool {
        @inlinable get { hiddenFlag }
        set { hiddenFlag = newValue }
    }

    public final var opacity: Float {
        @inlinable get { storedOpacity }
        set { storedOpacity = newValue }
    }

    public final var masksToBounds = false
    public var backgroundColor: CGColor?

    /// The object that provides content. A view's own layer has its view as
    /// delegate, set with ``setOwningDelegate(_:)``; any other delegate is
    /// held weakly.
    public var delegate: (any CALayerDelegate)? {
        get { owningDelegate ?? weakDelegate }
        set {
            owningDelegate = nil
            weakDelegate = newValue
        }
    }

    private weak var weakDelegate: (any CALayerDelegate)?
    private unowned(unsafe) var owningDelegate: (any CALayerDelegate)?

    /// Makes `owner` the delegate without a weak reference: for an object
    /// that holds this layer strongly (a view and its layer), which must set
    /// nil as it goes away. A weak reference to an object makes every retain
    /// and release of it take the runtime's slow path, and views are retained
    /// on every hit test.
    public func setOwningDelegate(_ owner: (any CALayerDelegate)?) {
        weakDelegate = nil
        owningDelegate = owner
    }

    // MARK: The layer tree

    /// Not retained (the superlayer owns this layer): cleared when this
    /// layer is removed and when the superlayer goes away.
    @exclusivity(unchecked) public private(set) unowned(unsafe) var superlayer: CALayer?

    /// The sublayers, back to front; nil when there are none.
    public var sublayers: [CALayer]? {
        get { storedSublayers.isEmpty ? nil : storedSublayers }
        set {
            for layer in storedSublayers { layer.superlayer = nil }
            storedSublayers = []
            for layer in newValue ?? [] { addSublayer(layer) }
        }
    }

    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(clamping: storedSublayers.count))
    }

    /// Inserts `layer` at `index` among the sublayers (clamped to the count),
    /// taking it from its current superlayer. Adding a layer to its own
    /// subtree is refused and leaves both trees as they were.
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        guard !isInSubtree(of: layer) else { return }
        if layer.superlayer === self, let current = storedSublayers.firstIndex(where: { $0 === layer }) {
            storedSublayers.remove(at: current)
        } else {
            layer.removeFromSuperlayer()
        }
        let at = min(Int(index), storedSublayers.count)
        storedSublayers.insert(layer, at: at)
        layer.superlayer = self
    }

    public func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        guard let sibling, sibling.superlayer === self else { return addSublayer(layer) }
        guard layer !== sibling else { return }
        if layer.superlayer === self, let current = storedSublayers.firstIndex(where: { $0 === layer }) {
            storedSublayers.remove(at: current)
            layer.superlayer = nil
        }
        let index = storedSublayers.firstIndex(where: { $0 === sibling })! + 1
        insertSublayer(layer, at: UInt32(index))
    }

    public func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        guard let sibling, sibling.superlayer === self else { return insertSublayer(layer, at: 0) }
        guard layer !== sibling else { return }
        if layer.superlayer === self, let current = storedSublayers.firstIndex(where: { $0 === layer }) {
            storedSublayers.remove(at: current)
            layer.superlayer = nil
        }
        let index = storedSublayers.firstIndex(where: { $0 === sibling })!
        insertSublayer(layer, at: UInt32(index))
    }

    /// Puts `new` where `old` is, taking `new` from its current place (which
    /// may be among these sublayers). Replacing with an ancestor, or with
    /// `self`, is refused and changes nothing.
    public func replaceSublayer(_ old: CALayer, with new: CALayer) {
        guard old !== new, old.superlayer === self, !isInSubtree(of: new) else { return }
        // Take `new` out first, so that `old`'s index is the one `new` should get.
        new.removeFromSuperlayer()
        guard let index = storedSublayers.firstIndex(where: { $0 === old }) else { return }
        storedSublayers[index] = new
        new.superlayer = self
        old.superlayer = nil
    }

    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        if let index = parent.storedSublayers.firstIndex(where: { $0 === self }) {
            parent.storedSublayers.remove(at: index)
        }
        superlayer = nil
    }

    /// Whether `self` is `layer` or lies below it.
    public func isInSubtree(of layer: CALayer) -> Bool {
        var current: CALayer? = self
        while let node = current {
            if node === layer { return true }
            current = node.superlayer
        }
        return false
    }

    // MARK: Coordinate conversion

    /// Converts a point from the superlayer's coordinate space into this
    /// layer's. A layer whose transform cannot be inverted maps every point
    /// to NaN, which no bounds contain.
    @inlinable
    public final func convertFromSuperlayer(_ point: CGPoint) -> CGPoint {
        let anchorX = storedBounds.origin.x + storedAnchorPoint.x * storedBounds.size.width
        let anchorY = storedBounds.origin.y + storedAnchorPoint.y * storedBounds.size.height
        let dx = point.x - storedPosition.x
        let dy = point.y - storedPosition.y
        guard let transform = nonIdentityTransform else {
            return CGPoint(x: dx + anchorX, y: dy + anchorY)
        }
        guard let inverse = transform.inverseAffine else { return CGPoint(x: CGFloat.nan, y: CGFloat.nan) }
        let local = CGPoint(x: dx, y: dy).applying(inverse)
        return CGPoint(x: local.x + anchorX, y: local.y + anchorY)
    }

    /// Converts a point from this layer's coordinate space into the superlayer's.
    public func convertToSuperlayer(_ point: CGPoint) -> CGPoint {
        let anchorX = storedBounds.origin.x + storedAnchorPoint.x * storedBounds.size.width
        let anchorY = storedBounds.origin.y + storedAnchorPoint.y * storedBounds.size.height
        let local = CGPoint(x: point.x - anchorX, y: point.y - anchorY)
        let moved = nonIdentityTransform.map { local.applying($0.affine) } ?? local
        return CGPoint(x: moved.x + storedPosition.x, y: moved.y + storedPosition.y)
    }

    /// Converts a point from this layer's space into the space its root layer
    /// sits in. For a window's layer tree that space is the screen's, which
    /// is how points travel between layer trees.
    public func convertToRootSpace(_ point: CGPoint) -> CGPoint {
        var p = point
        var current: CALayer? = self
        while let layer = current {
            p = layer.convertToSuperlayer(p)
            current = layer.superlayer
        }
        return p
    }

    /// The inverse of ``convertToRootSpace(_:)``.
    public func convertFromRootSpace(_ point: CGPoint) -> CGPoint {
        let inParent = superlayer?.convertFromRootSpace(point) ?? point
        return convertFromSuperlayer(inParent)
    }

    /// Converts `point` from `layer`'s coordinate space (or the root space,
    /// for nil) into this layer's.
    public func convert(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
        if layer === self { return point }
        if let layer, layer.superlayer === self { return layer.convertToSuperlayer(point) }
        if let layer, superlayer === layer { return convertFromSuperlayer(point) }
        return convertFromRootSpace(layer?.convertToRootSpace(point) ?? point)
    }

    /// Converts `point` from this layer's coordinate space into `layer`'s
    /// (or the root space, for nil).
    public func convert(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
        guard let layer else { return convertToRootSpace(point) }
        return layer.convert(point, from: self)
    }

    /// Converts a rectangle; under a rotation the result is the bounding box.
    public func convert(_ rect: CGRect, from layer: CALayer?) -> CGRect {
        CGRect(boundingCorners: rect.corners.map { convert($0, from: layer) })
    }

    public func convert(_ rect: CGRect, to layer: CALayer?) -> CGRect {
        CGRect(boundingCorners: rect.corners.map { convert($0, to: layer) })
    }

    // MARK: Hit-testing

    /// Whether `point`, in this layer's coordinates, lies in its bounds: the
    /// minimum edges are inside, the maximum edges are not.
    open func contains(_ point: CGPoint) -> Bool {
        boundsContains(point)
    }

    /// The default `contains(_:)`, which subclasses cannot change; views use
    /// it for `point(inside:with:)`, on the hot path of every hit test.
    @inlinable
    public final func boundsContains(_ point: CGPoint) -> Bool {
        let b = storedBounds
        return point.x >= b.origin.x && point.x < b.origin.x + b.size.width
            && point.y >= b.origin.y && point.y < b.origin.y + b.size.height
    }

    /// The front-most layer of this subtree (this layer included) that
    /// contains `point`, given in the superlayer's coordinates. Hidden layers
    /// and their subtrees are skipped; opacity does not matter to layers, and
    /// only a layer that masks to its bounds hides its sublayers outside them.
    open func hitTest(_ point: CGPoint) -> CALayer? {
        guard !isHidden else { return nil }
        let local = convertFromSuperlayer(point)
        let inside = contains(local)
        if masksToBounds && !inside { return nil }
        for layer in sublayersFrontToBack() {
            if let hit = layer.hitTest(local) { return hit }
        }
        return inside ? self : nil
    }

    /// Sublayers in the order they are seen from the front: higher
    /// `zPosition` first, then later siblings first.
    public func sublayersFrontToBack() -> [CALayer] {
        let reversed = Array(storedSublayers.reversed())
        guard reversed.contains(where: { $0.zPosition != 0 }) else { return reversed }
        return reversed.enumerated()
            .sorted { ($0.element.zPosition, -$0.offset) > ($1.element.zPosition, -$1.offset) }
            .map(\.element)
    }

    // MARK: Content

    public private(set) var needsDisplay = false

    /// Marks the content as stale; it is redrawn at the next `displayIfNeeded()`.
    public func setNeedsDisplay() { needsDisplay = true }

    public func displayIfNeeded() {
        guard needsDisplay else { return }
        display()
    }

    /// Asks the delegate to provide content now.
    open func display() {
        needsDisplay = false
        delegate?.display(self)
    }
}

/// A layer's transform other than the identity, with the affine part and its
/// inverse worked out once, as every conversion through the layer uses them.
@usableFromInline
final class LayerTransform: Sendable {
    let transform: CATransform3D
    @usableFromInline let affine: CGAffineTransform
    /// Nil when the transform squashes the plane and cannot be undone.
    @usableFromInline let inverseAffine: CGAffineTransform?

    init(_ transform: CATransform3D) {
        self.transform = transform
        affine = CATransform3DGetAffineTransform(transform)
        inverseAffine = affine.invertedIfPossible()
    }
}
