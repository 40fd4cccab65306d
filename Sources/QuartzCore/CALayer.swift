import Foundation

/// What a layer asks of the object that owns it. A `UIView` is the delegate
/// of its own layer.
@preconcurrency @MainActor
public protocol CALayerDelegate: AnyObject {
    /// Called by ``CALayer/display()`` to let the delegate provide the layer's content.
    func display(_ layer: CALayer)
    /// Called by ``CALayer/layoutSublayers()``: the delegate places the
    /// layer's sublayers (a view lays out its subviews here).
    func layoutSublayers(of layer: CALayer)
    /// The action for a change of `event` (a property's key), asked first by
    /// ``CALayer/action(forKey:)``: an action, `NSNull()` to run none and
    /// stop the search, or nil to let the layer go on looking.
    func action(for layer: CALayer, forKey event: String) -> (any CAAction)?
}

extension CALayerDelegate {
    public func display(_ layer: CALayer) {}
    public func layoutSublayers(of layer: CALayer) {}
    public func action(for layer: CALayer, forKey event: String) -> (any CAAction)? { nil }
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
@preconcurrency @MainActor
open class CALayer: NSObject, CAMediaTiming {
    // What every hit test reads comes first, so that it shares the object's
    // first cache lines: in a tree of thousands of views most of the layers a
    // hit test visits are not in the cache. This relies on the compiler
    // laying a class's stored properties out in the order they are declared,
    // which it does today but the language does not promise. A compiler that
    // reordered them would change no instruction count; it would show as
    // slower random-point hit tests in `Benchmarks/run.sh` (6–8% when this
    // layout was introduced), compared side by side with the build before.
    @usableFromInline @exclusivity(unchecked) final var storedBounds = CGRect.zero
    @usableFromInline @exclusivity(unchecked) final var storedPosition = CGPoint.zero
    @usableFromInline @exclusivity(unchecked) final var storedAnchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// Nil for the identity, which nearly every layer has; kept out of line
    /// so that the transform's 200-odd bytes do not spread the hot fields apart.
    @usableFromInline @exclusivity(unchecked) final var nonIdentityTransform: LayerTransform?
    @usableFromInline @exclusivity(unchecked) final var hiddenFlag = false
    @usableFromInline @exclusivity(unchecked) final var storedOpacity: Float = 1
    @exclusivity(unchecked) private var storedSublayers: [CALayer] = []

    public required override init() {
        createdAtCommit = TransactionState.current.commitCount
        super.init()
    }

    isolated deinit {
        for layer in storedSublayers { layer.superlayer = nil }
        storedMask?.maskedLayer = nil
        if layoutQueueSlot != nil || displayQueueSlot != nil { TransactionState.current.forget(self) }
    }

    // MARK: Geometry

    public var bounds: CGRect {
        get { storedBounds }
        set {
            guard newValue.isFinite, newValue != storedBounds else { return }
            let old = storedBounds
            let resized = newValue.size != storedBounds.size
            storedBounds = newValue
            boundsDidChange(resized: resized)
            propertyDidChange("bounds", from: old)
        }
    }

    public var position: CGPoint {
        get { storedPosition }
        set {
            guard newValue.isFinite, newValue != storedPosition else { return }
            let old = storedPosition
            storedPosition = newValue
            markChanged(.geometry)
            propertyDidChange("position", from: old)
        }
    }

    public var anchorPoint: CGPoint {
        get { storedAnchorPoint }
        set {
            guard newValue.isFinite, newValue != storedAnchorPoint else { return }
            let old = storedAnchorPoint
            storedAnchorPoint = newValue
            markChanged(.geometry)
            propertyDidChange("anchorPoint", from: old)
        }
    }

    public var transform: CATransform3D {
        get { nonIdentityTransform?.transform ?? CATransform3DIdentity }
        set {
            guard newValue.isFinite else { return }
            let old = transform
            nonIdentityTransform = LayerTransform.make(newValue, underSublayerTransform: superlayer?.hasSublayerTransform ?? false)
            markChanged(.geometry)
            if old != newValue { propertyDidChange("transform", from: old) }
        }
    }

    /// A transform applied to the sublayers (not to the layer itself),
    /// about the layer's anchor point; hit-testing and coordinate conversion
    /// go through it too, as Core Animation's do.
    @exclusivity(unchecked) public var sublayerTransform: CATransform3D = CATransform3DIdentity {
        didSet {
            if !sublayerTransform.isFinite { sublayerTransform = oldValue }
            let transformsSublayers = !CATransform3DIsIdentity(sublayerTransform) || isTransformLayer
            if transformsSublayers != hasSublayerTransform {
                hasSublayerTransform = transformsSublayers
                for layer in storedSublayers {
                    layer.nonIdentityTransform = LayerTransform.make(layer.transform, underSublayerTransform: transformsSublayers)
                }
            }
            markChanged(.geometry)
            if sublayerTransform != oldValue { propertyDidChange("sublayerTransform", from: oldValue) }
        }
    }

    /// Orders siblings: higher values are drawn and hit-tested in front,
    /// whatever their order among the sublayers.
    @exclusivity(unchecked) public var zPosition: CGFloat = 0 {
        didSet {
            if !zPosition.isFinite { zPosition = oldValue }
            markChanged(.geometry)
            superlayer?.markChanged(.sublayers)
            if zPosition != oldValue { propertyDidChange("zPosition", from: oldValue) }
        }
    }

    /// Whether ``sublayerTransform`` is not the identity, or the layer is
    /// a transform layer: either way the sublayers are placed through more
    /// than their own transform.
    @usableFromInline @exclusivity(unchecked) final var hasSublayerTransform = false

    /// Whether the layer is a ``CATransformLayer``, which does not flatten
    /// its sublayers into its plane.
    var isTransformLayer: Bool { false }

    /// Whether the layer is drawn when it faces away from the viewer (its
    /// back, a mirror image of its front); true by default. A layer that is
    /// not is hidden while its transform in its superlayer's plane turns its
    /// back to the viewer, but is hit-tested all the same, as in UIKit.
    public var isDoubleSided = true {
        didSet { if isDoubleSided != oldValue { markChanged(.group) } }
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
            return CGRect(boundingCorners: storedBounds.corners.map(convertToOwnPlacement))
        }
        set {
            guard newValue.isFinite else { return }
            let frame = newValue.standardized
            guard let transform = nonIdentityTransform else {
                position = CGPoint(
                    x: frame.minX + storedAnchorPoint.x * frame.width,
                    y: frame.minY + storedAnchorPoint.y * frame.height)
                bounds.size = frame.size
                return
            }
            if let inverse = transform.inverseAffine {
                let linearInverse = CGAffineTransform(a: inverse.a, b: inverse.b, c: inverse.c, d: inverse.d, tx: 0, ty: 0)
                bounds.size = CGRect(origin: .zero, size: frame.size).applying(linearInverse).size
            }
            let placed = self.frame
            position = CGPoint(x: storedPosition.x + frame.midX - placed.midX, y: storedPosition.y + frame.midY - placed.midY)
        }
    }

    /// A new size marks the layer for layout, and for display when
    /// ``needsDisplayOnBoundsChange`` is set.
    private func boundsDidChange(resized: Bool) {
        markChanged(.geometry)
        guard resized else { return }
        setNeedsLayout()
        if needsDisplayOnBoundsChange { setNeedsDisplay() }
    }

    // MARK: Appearance

    public final var isHidden: Bool {
        @inlinable get { hiddenFlag }
        set {
            guard newValue != hiddenFlag else { return }
            hiddenFlag = newValue
            markChanged(.group)
        }
    }

    /// The opacity of the layer and its sublayers as one group, 0…1.
    /// A value that is not a number is refused.
    public final var opacity: Float {
        @inlinable get { storedOpacity }
        set {
            guard !newValue.isNaN, newValue != storedOpacity else { return }
            let old = storedOpacity
            storedOpacity = newValue
            markChanged(.group)
            propertyDidChange("opacity", from: old)
        }
    }

    /// Clips the sublayers and contents to the bounds, rounded by
    /// ``cornerRadius`` at the ``maskedCorners``.
    public final var masksToBounds = false {
        didSet { if masksToBounds != oldValue { markChanged(.group) } }
    }

    @exclusivity(unchecked) public var backgroundColor: CGColor? {
        didSet {
            markChanged(.appearance)
            if backgroundColor != oldValue { propertyDidChange("backgroundColor", from: oldValue) }
        }
    }

    /// Rounds the background and border (and, with ``masksToBounds``, the
    /// contents and sublayers) at the corners in ``maskedCorners``.
    /// Negative and non-finite values are refused.
    @exclusivity(unchecked) public var cornerRadius: CGFloat = 0 {
        didSet {
            if !(cornerRadius.isFinite && cornerRadius >= 0) { cornerRadius = oldValue }
            markChanged(.group)
            if cornerRadius != oldValue { propertyDidChange("cornerRadius", from: oldValue) }
        }
    }

    /// Which corners ``cornerRadius`` rounds; all four by default.
    @exclusivity(unchecked) public var maskedCorners: CACornerMask = .all {
        didSet { markChanged(.group) }
    }

    /// A border inset from the bounds, drawn above the contents and the
    /// sublayers. Negative and non-finite widths are refused.
    @exclusivity(unchecked) public var borderWidth: CGFloat = 0 {
        didSet {
            if !(borderWidth.isFinite && borderWidth >= 0) { borderWidth = oldValue }
            markChanged(.appearance)
            if borderWidth != oldValue { propertyDidChange("borderWidth", from: oldValue) }
        }
    }

    /// Opaque black by default, as in Core Animation.
    @exclusivity(unchecked) public var borderColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1) {
        didSet {
            markChanged(.appearance)
            if borderColor != oldValue { propertyDidChange("borderColor", from: oldValue) }
        }
    }

    /// Whether the layer promises to cover its bounds with opaque pixels.
    public var isOpaque = false

    // MARK: Shadow

    @exclusivity(unchecked) public var shadowColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1) {
        didSet {
            markChanged(.appearance)
            if shadowColor != oldValue { propertyDidChange("shadowColor", from: oldValue) }
        }
    }

    /// 0 (no shadow, the default) to 1.
    @exclusivity(unchecked) public var shadowOpacity: Float = 0 {
        didSet {
            if shadowOpacity.isNaN { shadowOpacity = oldValue }
            markChanged(.appearance)
            if shadowOpacity != oldValue { propertyDidChange("shadowOpacity", from: oldValue) }
        }
    }

    /// Where the shadow falls, in the superlayer's units; (0, −3) by default.
    @exclusivity(unchecked) public var shadowOffset = CGSize(width: 0, height: -3) {
        didSet {
            if !(shadowOffset.width.isFinite && shadowOffset.height.isFinite) { shadowOffset = oldValue }
            markChanged(.appearance)
            if shadowOffset != oldValue { propertyDidChange("shadowOffset", from: oldValue) }
        }
    }

    /// The blur of the shadow, in points; 3 by default.
    @exclusivity(unchecked) public var shadowRadius: CGFloat = 3 {
        didSet {
            if !(shadowRadius.isFinite && shadowRadius >= 0) { shadowRadius = oldValue }
            markChanged(.appearance)
            if shadowRadius != oldValue { propertyDidChange("shadowRadius", from: oldValue) }
        }
    }

    /// The shape that casts the shadow, in the layer's coordinates, instead
    /// of the layer's background; nil by default. A copy is kept, as Core
    /// Animation does, so changing the path later changes nothing.
    public var shadowPath: CGPath? {
        get { storedShadowPath }
        set {
            storedShadowPath = newValue?.copy()
            markChanged(.appearance)
        }
    }
    @exclusivity(unchecked) private var storedShadowPath: CGPath?

    // MARK: Contents

    /// What the layer shows inside its bounds: a `CGImage`, or nil. A
    /// delegate's drawing ends up here.
    @exclusivity(unchecked) public var contents: Any? {
        didSet { markChanged(.appearance) }
    }

    /// Where in the bounds the contents go; ``CALayerContentsGravity/resize`` by default.
    @exclusivity(unchecked) public var contentsGravity: CALayerContentsGravity = .resize {
        didSet { markChanged(.appearance) }
    }

    /// Pixels of the contents per point: an image with scale 2 is half as
    /// large in points as it is in pixels (for the gravities that keep size).
    @exclusivity(unchecked) public var contentsScale: CGFloat = 1 {
        didSet {
            if !(contentsScale.isFinite && contentsScale > 0) { contentsScale = oldValue }
            markChanged(.appearance)
        }
    }

    /// The part of the contents shown, in unit coordinates of the image;
    /// the whole image by default.
    @exclusivity(unchecked) public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1) {
        didSet {
            if !contentsRect.isFinite { contentsRect = oldValue }
            markChanged(.appearance)
            if contentsRect != oldValue { propertyDidChange("contentsRect", from: oldValue) }
        }
    }

    /// When true, a new size of the bounds marks the layer for display.
    public var needsDisplayOnBoundsChange = false

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

    /// Whether the layer is a view's own layer.
    package var hasOwningDelegate: Bool { owningDelegate != nil }

    // MARK: Animations and actions (Animation/CALayer+Animations.swift)

    /// The animations added to the layer, in the order they apply; nil
    /// when there are none. It, the layer's timing and the appearance
    /// properties (below, `@exclusivity(unchecked)`) are read for every
    /// animated layer at every refresh, only on the main actor and never
    /// through overlapping inout accesses (docs/performance.md).
    @exclusivity(unchecked) package var animationList: LayerAnimationList?
    /// A presentation or model copy: it marks nothing and runs no actions.
    package var isDetachedCopy = false
    /// For a presentation copy, the model layer it was made from.
    package var modelLayerReference: CALayer?
    /// The number of commits made before this layer was: a layer counts as
    /// committed (and runs implicit actions) once a commit came after it.
    package let createdAtCommit: Int

    /// Actions for property keys, asked after the delegate; `NSNull()`
    /// for a key runs no action for it.
    public var actions: [String: any CAAction]?

    /// A property the layer's actions may animate changed from `old`: runs
    /// the action for it. Layers owned by a view ask only while the view
    /// side has opened an animation block, as a view answers "no action"
    /// outside one (UIKit's rule), and that test is one load.
    @inline(__always)
    final func propertyDidChange(_ key: String, from old: @autoclosure () -> Any?) {
        guard !isDetachedCopy, owningDelegate == nil || AnimationEngine.current.ownedLayersAskForActions else { return }
        runAction(forKey: key, oldValue: old())
    }

    /// The action for a change of `event`: the delegate's answer, else the
    /// ``actions`` dictionary's, else the class's ``defaultAction(forKey:)``,
    /// else, for an animatable property, a basic animation of it (the
    /// implicit animation). `NSNull` anywhere stops the search: no action.
    open func action(forKey event: String) -> (any CAAction)? {
        if let action = delegate?.action(for: self, forKey: event) {
            return action is NSNull ? nil : action
        }
        if let action = actions?[event] {
            return action is NSNull ? nil : action
        }
        if let action = type(of: self).defaultAction(forKey: event) {
            return action is NSNull ? nil : action
        }
        guard LayerValues.isAnimatable(event) else { return nil }
        return CABasicAnimation(keyPath: event)
    }

    /// The class's action for `event`; nil by default.
    open class func defaultAction(forKey event: String) -> (any CAAction)? { nil }

    /// A shape layer's animatable values; nil for other layers.
    var shapeValues: ShapeValues? {
        get { nil }
        set {}
    }

    /// A gradient layer's animatable values; nil for other layers.
    var gradientPoints: GradientPoints? {
        get { nil }
        set {}
    }

    // MARK: Layer time (CAMediaTiming)

    @exclusivity(unchecked) public var beginTime: TimeInterval = 0 { didSet { layerTimingDidChange() } }
    @exclusivity(unchecked) public var timeOffset: TimeInterval = 0 { didSet { layerTimingDidChange() } }
    @exclusivity(unchecked) public var speed: Float = 1 { didSet { layerTimingDidChange() } }
    public var duration: TimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: TimeInterval = 0
    public var autoreverses = false
    public var fillMode: CAMediaTimingFillMode = .removed

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
    public private(set) var superlayer: CALayer? {
        get { superlayerReference?.object }
        set {
            superlayerReference = UnretainedReference(newValue)
            let underSublayerTransform = newValue?.hasSublayerTransform ?? false
            if underSublayerTransform || nonIdentityTransform?.underSublayerTransform == true {
                nonIdentityTransform = LayerTransform.make(transform, underSublayerTransform: underSublayerTransform)
            }
        }
    }
    @exclusivity(unchecked) private var superlayerReference: UnretainedReference<CALayer>?

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
        layer.joinedSuperlayer()
        markChanged(.sublayers)
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
        new.joinedSuperlayer()
        old.superlayer = nil
        markChanged(.sublayers)
    }

    /// Takes the layer out of its superlayer's sublayers, or, for a mask,
    /// off the layer it masks.
    public func removeFromSuperlayer() {
        if let owner = maskedLayer { owner.mask = nil }
        guard let parent = superlayer else { return }
        if let index = parent.storedSublayers.firstIndex(where: { $0 === self }) {
            parent.storedSublayers.remove(at: index)
        }
        superlayer = nil
        parent.markChanged(.sublayers)
    }

    /// Whether `self` is `layer` or lies below it, as a sublayer or as a
    /// mask (or a sublayer of a mask) of a layer below it.
    public func isInSubtree(of layer: CALayer) -> Bool {
        var current: CALayer? = self
        while let node = current {
            if node === layer { return true }
            current = node.superlayer ?? node.maskedLayer
        }
        return false
    }

    // MARK: Mask

    /// A layer whose alpha channel masks this layer: where the mask is
    /// opaque the layer shows, where it is clear nothing of it does, in
    /// between it is faded. The mask is drawn as a layer tree of its own
    /// (background, contents, sublayers, corners, opacity) in this layer's
    /// coordinates: its `frame` is in this layer's bounds space. It masks
    /// this layer together with its sublayers, after ``masksToBounds``
    /// clips them, and its shadow as well. Nil by default.
    ///
    /// The mask must not have a superlayer (Core Animation leaves that
    /// undefined): such a layer is refused and the old mask kept, and so is
    /// this layer itself or any layer it lies in (a cycle). A layer that
    /// masks another is taken from it. Changing the mask, or any property
    /// of it, draws the masked layer again.
    public var mask: CALayer? {
        get { storedMask }
        set {
            guard newValue !== storedMask else { return }
            if let newValue {
                guard newValue.superlayer == nil, !isInSubtree(of: newValue) else { return }
                newValue.maskedLayer?.mask = nil
                newValue.maskedLayer = self
            }
            storedMask?.maskedLayer = nil
            storedMask = newValue
            markChanged(.group)
        }
    }
    private var storedMask: CALayer?

    /// The layer this one is the ``mask`` of; not retained (that layer owns this one).
    package private(set) var maskedLayer: CALayer? {
        get { maskedLayerReference?.object }
        set { maskedLayerReference = UnretainedReference(newValue) }
    }
    private var maskedLayerReference: UnretainedReference<CALayer>?

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
        return convertFromSuperlayer(point, through: transform)
    }

    /// ``convertFromSuperlayer(_:)`` for a layer with a transform (or under
    /// a sublayer transform): out of line, so that the common case inlined
    /// into every hit test stays as small as it was before layers could be
    /// placed in depth (a hit test cost 23 instructions more otherwise).
    @usableFromInline
    final func convertFromSuperlayer(_ point: CGPoint, through transform: LayerTransform) -> CGPoint {
        if isTransformLayer { return CGPoint(x: point.x - storedPosition.x + anchorInBounds.x, y: point.y - storedPosition.y + anchorInBounds.y) }
        if transform.placesInDepth { return convertFromSuperlayerPlane(point) }
        guard let inverse = transform.inverseAffine else { return CGPoint(x: CGFloat.nan, y: CGFloat.nan) }
        let anchor = anchorInBounds
        let local = CGPoint(x: point.x - storedPosition.x, y: point.y - storedPosition.y).applying(inverse)
        return CGPoint(x: local.x + anchor.x, y: local.y + anchor.y)
    }

    /// Converts a point from this layer's coordinate space into the superlayer's.
    public func convertToSuperlayer(_ point: CGPoint) -> CGPoint {
        if let transform = nonIdentityTransform {
            if isTransformLayer { return CGPoint(x: point.x - anchorInBounds.x + storedPosition.x, y: point.y - anchorInBounds.y + storedPosition.y) }
            if transform.placesInDepth { return convertToSuperlayerPlane(point) }
        }
        return convertToOwnPlacement(point)
    }

    /// From this layer's coordinates through its own transform (not the
    /// superlayer's sublayer transform) to its superlayer's: what `frame`
    /// bounds.
    private func convertToOwnPlacement(_ point: CGPoint) -> CGPoint {
        if let transform = nonIdentityTransform, !transform.transform.flattensAffinely {
            return CGPoint(planeMapping(throughSublayerTransform: false).apply(Double(point.x), Double(point.y)))
        }
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

    // MARK: Layout

    private var needsLayoutFlag = false
    /// Some sublayer, at any depth, needs layout: the layout pass goes down
    /// only the branches that have this or ``needsLayout()`` set.
    private var descendantNeedsLayout = false

    /// Whether the layer is marked for layout.
    public func needsLayout() -> Bool { needsLayoutFlag }

    /// Marks the layer for layout: its sublayers are placed again at the
    /// next layout pass (the end of the run-loop turn, or ``layoutIfNeeded()``).
    public func setNeedsLayout() {
        if layoutQueueSlot == nil { TransactionState.current.layerNeedsLayout(self) }
        guard !needsLayoutFlag else { return }
        needsLayoutFlag = true
        markAncestorsForLayoutBelowThem()
    }

    /// Tells the ancestors, up to the first that knows, that a layer below
    /// them is marked for layout, so that their ``layoutIfNeeded()`` goes down
    /// to it.
    private func markAncestorsForLayoutBelowThem() {
        var ancestor = superlayer
        while let layer = ancestor, !layer.descendantNeedsLayout {
            layer.descendantNeedsLayout = true
            ancestor = layer.superlayer
        }
    }

    /// A layer joined a superlayer: if it or a layer below it was marked
    /// for layout before (while it had no superlayer or another one), its
    /// new ancestors learn of it.
    private func joinedSuperlayer() {
        if needsLayoutFlag || descendantNeedsLayout { markAncestorsForLayoutBelowThem() }
    }

    package func markDescendantNeedsLayout() { descendantNeedsLayout = true }

    /// Whether the layout pass is in this layer's ``layoutSublayers()``:
    /// a view does not mark its superview for layout for sizes that the
    /// superview's layout sets.
    package private(set) var isLayingOutSublayers = false

    /// Lays out this layer if it is marked, then, top down, every marked
    /// layer below it: a superlayer is always laid out before its sublayers,
    /// so sublayers it resizes are laid out in the same pass.
    public func layoutIfNeeded() {
        if needsLayoutFlag {
            needsLayoutFlag = false
            isLayingOutSublayers = true
            layoutSublayers()
            isLayingOutSublayers = false
        }
        guard descendantNeedsLayout else { return }
        descendantNeedsLayout = false
        for layer in storedSublayers where layer.needsLayoutFlag || layer.descendantNeedsLayout {
            layer.layoutIfNeeded()
        }
    }

    /// Places the sublayers; by default asks the delegate.
    open func layoutSublayers() {
        delegate?.layoutSublayers(of: self)
    }

    /// The size the layer would like: by default the size of its bounds.
    open func preferredFrameSize() -> CGSize { storedBounds.size }

    // MARK: Display

    private var needsDisplayFlag = false

    /// Whether the layer's content is marked stale.
    public func needsDisplay() -> Bool { needsDisplayFlag }

    /// Marks the content as stale; it is redrawn at the next display pass
    /// (the end of the run-loop turn) or `displayIfNeeded()`.
    public func setNeedsDisplay() {
        if displayQueueSlot == nil { TransactionState.current.layerNeedsDisplay(self) }
        guard !needsDisplayFlag else { return }
        needsDisplayFlag = true
    }

    /// Marks part of the content as stale: the whole content is redrawn, as
    /// a layer's backing store is drawn whole here.
    public func setNeedsDisplay(_ rect: CGRect) {
        guard rect.isFinite, !rect.isEmpty else { return }
        setNeedsDisplay()
    }

    public func displayIfNeeded() {
        guard needsDisplayFlag else { return }
        // Cleared here too: a subclass's `display()` need not call super.
        needsDisplayFlag = false
        display()
    }

    /// Provides the content now: by default asks the delegate's `display(_:)`.
    open func display() {
        needsDisplayFlag = false
        delegate?.display(self)
    }

    // MARK: Changes since the last commit

    // Read for every sublayer a commit passes over, only on the main actor
    // and never through overlapping inout accesses: unchecked.

    /// What changed in this layer since the committed tree last copied it.
    @exclusivity(unchecked) package var pendingChanges: LayerChanges = []
    /// Some sublayer, at any depth, has pending changes: a commit goes down
    /// only the branches that have this or pending changes.
    @exclusivity(unchecked) package var descendantHasChanges = false
    /// The layer's copy in the committed tree, once it has been committed.
    @exclusivity(unchecked) package var committedNode: RenderLayer?

    /// The layer's place in the transaction's list of layers to lay out or
    /// display, while it is in it. The lists do not retain their layers: a
    /// layer that goes away empties its place, found here without a search
    /// (tearing down a tree of 10,000 marked layers was quadratic before).
    package var layoutQueueSlot: Int?
    package var displayQueueSlot: Int?

    /// Records a change for the next commit, and opens the implicit
    /// transaction if none is open.
    package func markChanged(_ change: LayerChanges) {
        if isDetachedCopy { return }
        if pendingChanges.isEmpty { propagateDescendantChange() }
        pendingChanges.insert(change)
        TransactionState.current.layerDidChange()
    }

    /// Marks the ancestors, through a mask to the layer it masks.
    private func propagateDescendantChange() {
        var ancestor = superlayer ?? maskedLayer
        while let layer = ancestor, !layer.descendantHasChanges {
            layer.descendantHasChanges = true
            ancestor = layer.superlayer ?? layer.maskedLayer
        }
    }
}

/// Kinds of change a commit copies into the committed tree.
package struct LayerChanges: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bounds, position, anchor point, transforms: where the layer and its subtree are drawn.
    package static let geometry = LayerChanges(rawValue: 1 << 0)
    /// Background, border, contents, shadow: what the layer itself draws.
    package static let appearance = LayerChanges(rawValue: 1 << 1)
    /// Opacity, hidden, masking, corner radius: how the whole subtree is drawn.
    package static let group = LayerChanges(rawValue: 1 << 2)
    /// Sublayers added, removed, reordered or moved in z.
    package static let sublayers = LayerChanges(rawValue: 1 << 3)
}

/// The corners a layer's corner radius rounds.
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1 << 0)
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 1 << 1)
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 1 << 2)
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 1 << 3)
    static let all: CACornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// Where a layer's contents go in its bounds.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let center = CALayerContentsGravity(rawValue: "center")
    public static let top = CALayerContentsGravity(rawValue: "top")
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    public static let left = CALayerContentsGravity(rawValue: "left")
    public static let right = CALayerContentsGravity(rawValue: "right")
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    /// Stretched to fill the bounds (the default).
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    /// Scaled to fit inside the bounds, keeping its aspect ratio.
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    /// Scaled to fill the bounds, keeping its aspect ratio (cropped).
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
}

/// A layer's transform other than the identity (or any transform, under a
/// superlayer's sublayer transform), with the affine part and its inverse
/// worked out once, as every conversion through the layer uses them.
@usableFromInline
final class LayerTransform: Sendable {
    let transform: CATransform3D
    @usableFromInline let affine: CGAffineTransform
    /// Nil when the transform squashes the plane and cannot be undone.
    @usableFromInline let inverseAffine: CGAffineTransform?
    /// Whether the superlayer's sublayer transform is not the identity.
    let underSublayerTransform: Bool
    /// Whether points go between the layer and its superlayer through
    /// ``CALayer/planeMapping(throughSublayerTransform:)`` (perspective, or
    /// a sublayer transform) rather than the affine part.
    @usableFromInline let placesInDepth: Bool

    private init(_ transform: CATransform3D, underSublayerTransform: Bool) {
        self.transform = transform
        affine = CATransform3DGetAffineTransform(transform)
        inverseAffine = affine.invertedIfPossible()
        self.underSublayerTransform = underSublayerTransform
        placesInDepth = underSublayerTransform || !transform.flattensAffinely
    }

    /// What a layer with `transform` keeps: nil for the identity outside a
    /// sublayer transform, the common case, which conversions take fastest.
    static func make(_ transform: CATransform3D, underSublayerTransform: Bool) -> LayerTransform? {
        CATransform3DIsIdentity(transform) && !underSublayerTransform
            ? nil : LayerTransform(transform, underSublayerTransform: underSublayerTransform)
    }
}

extension CALayer {
    /// From this layer's plane to its superlayer's, as the layer is drawn
    /// (`LayerPlane`), through the superlayer's sublayer transform when
    /// asked.
    /// Under a transform layer, "through the sublayer transform" goes on
    /// through every transform layer above, to the first layer that
    /// flattens, and back to the transform layer's own space by its
    /// position alone (it has no plane: see ``CATransformLayer``).
    func planeMapping(throughSublayerTransform: Bool) -> Homography {
        guard throughSublayerTransform, let superlayer else { return LayerPlane.placement(of: planeLevel, under: nil).planeMapping }
        guard superlayer.isTransformLayer else { return LayerPlane.placement(of: planeLevel, under: superlayer.planeLevel).planeMapping }
        var passedOver: [LayerPlane.Level] = []
        var offset = CGPoint.zero
        var above: CALayer? = superlayer
        while let layer = above, layer.isTransformLayer {
            passedOver.append(layer.planeLevel)
            let anchor = layer.anchorInBounds
            offset.x += anchor.x - layer.storedPosition.x
            offset.y += anchor.y - layer.storedPosition.y
            above = layer.superlayer
        }
        let placed = LayerPlane.placement(of: planeLevel, through: passedOver, under: above?.planeLevel)
        return CATransform3DConcat(placed, CATransform3DMakeTranslation(offset.x, offset.y, 0)).planeMapping
    }

    /// The layer's geometry as its placement uses it.
    var planeLevel: LayerPlane.Level {
        LayerPlane.Level(bounds: storedBounds, anchorPoint: storedAnchorPoint, transform: transform, position: storedPosition,
                         zPosition: zPosition, sublayerTransform: sublayerTransform)
    }

    /// The anchor point in the layer's own coordinates.
    var anchorInBounds: CGPoint {
        CGPoint(x: storedBounds.minX + storedAnchorPoint.x * storedBounds.width,
                y: storedBounds.minY + storedAnchorPoint.y * storedBounds.height)
    }

    /// ``convertFromSuperlayer(_:)`` in depth: the point of this layer's
    /// plane seen at `point`; NaN (inside no bounds) where that point would
    /// be at or behind the eye, or the mapping cannot be undone. UIKit
    /// hit-tests a view under a 3-D transform where it is seen ("It's not
    /// because iOS cannot correctly transform the touch events to match the
    /// button position in 3D; it's actually quite capable of doing that",
    /// Nick Lockwood, iOS Core Animation: Advanced Techniques, ch. 5, "Touch
    /// Events").
    @usableFromInline
    func convertFromSuperlayerPlane(_ point: CGPoint) -> CGPoint {
        guard let back = planeMapping(throughSublayerTransform: true).inverse,
              let local = back.apply(Double(point.x), Double(point.y)) else { return CGPoint(x: CGFloat.nan, y: CGFloat.nan) }
        return CGPoint(local)
    }

    /// ``convertToSuperlayer(_:)`` in depth; NaN for a point at or behind the eye.
    func convertToSuperlayerPlane(_ point: CGPoint) -> CGPoint {
        CGPoint(planeMapping(throughSublayerTransform: true).apply(Double(point.x), Double(point.y)))
    }
}

extension CGPoint {
    /// A mapped point, or NaN for none (at or behind the eye).
    init(_ mapped: (x: Double, y: Double)?) {
        self = mapped.map { CGPoint(x: $0.x, y: $0.y) } ?? CGPoint(x: CGFloat.nan, y: CGFloat.nan)
    }
}

// MARK: - CATransformLayer

// Declared in this file for the reason CAGradientLayer is.

/// A layer that keeps its sublayers in 3-D instead of flattening them into
/// its plane, as Core Animation's: "transform layers do not flatten their
/// sublayers into the plane at Z=0" (Apple's `CATransformLayer` page). Its
/// sublayers' points go on through its sublayer transform and its own
/// transform (and those of transform layers above it) to the first layer
/// above that flattens, where each is seen in perspective; a cube of six
/// faces in a transform layer is drawn as a cube. Among themselves they
/// are drawn back to front by the depth of their centres, as Core
/// Animation sorts layers in depth.
///
/// As Apple documents, only the sublayers are drawn: the layer's own
/// background, contents and border, its mask, `masksToBounds`, filters and
/// shadow are ignored, and its opacity applies to each sublayer on its own
/// (it forms no group). It has no plane of its own to hit: hit-testing
/// passes over it to its sublayers, each tested where it is seen ("CALayer
/// will pass over transform layers directly to their sublayers, applying
/// the effects of the transform layer's geometry when hit-testing each
/// sublayer", Core Animation's header), in the sublayers' order, not their
/// depth, as UIKit hit-tests views in 3-D; it never returns itself.
/// Points given in its coordinates are taken relative to its position and
/// anchor point alone.
open class CATransformLayer: CALayer {
    /// A transform layer with no sublayers, at the origin, with empty bounds.
    public required init() {
        super.init()
        hasSublayerTransform = true
    }

    override var isTransformLayer: Bool { true }

    /// The front-most sublayer (or layer below one) that contains `point`,
    /// given in the superlayer's coordinates; never this layer itself.
    open override func hitTest(_ point: CGPoint) -> CALayer? {
        guard !isHidden else { return nil }
        let local = convertFromSuperlayer(point)
        for layer in sublayersFrontToBack() {
            if let hit = layer.hitTest(local) { return hit }
        }
        return nil
    }
}

// MARK: - CAGradientLayer

// Declared in this file rather than a file of its own: Swift 6.3 fails to
// emit the module when a subclass of CALayer (whose deinit is isolated)
// is declared in another file of the module.

/// A layer that fills its bounds (rounded by `cornerRadius`, as its
/// background is) with a gradient of `colors` over its background, as
/// Core Animation's does.
///
/// `colors` takes `CGColor`s (anything else in the array is ignored, as
/// Core Animation draws only colour references); `locations` places them
/// in 0…1 along the gradient, evenly when nil or when the counts differ;
/// `startPoint` and `endPoint` are in the unit coordinate space of the
/// bounds, (0, 0) at the top left.
open class CAGradientLayer: CALayer {
    /// The gradient's colours, `CGColor`s, in order.
    open var colors: [Any]? {
        didSet { markChanged(.appearance) }
    }

    /// Where each colour sits, 0…1 and ascending; nil spreads them evenly.
    open var locations: [NSNumber]? {
        didSet { markChanged(.appearance) }
    }

    /// Where the gradient starts (its centre, for radial and conic ones);
    /// (0.5, 0) by default. Non-finite points are refused.
    open var startPoint = CGPoint(x: 0.5, y: 0) {
        didSet {
            if !(startPoint.x.isFinite && startPoint.y.isFinite) { startPoint = oldValue }
            markChanged(.appearance)
            if startPoint != oldValue { propertyDidChange("startPoint", from: oldValue) }
        }
    }

    /// Where it ends (for a radial gradient, the ellipse's extent along
    /// each axis; for a conic one, the direction of its first colour);
    /// (0.5, 1) by default. Non-finite points are refused.
    open var endPoint = CGPoint(x: 0.5, y: 1) {
        didSet {
            if !(endPoint.x.isFinite && endPoint.y.isFinite) { endPoint = oldValue }
            markChanged(.appearance)
            if endPoint != oldValue { propertyDidChange("endPoint", from: oldValue) }
        }
    }

    /// Axial (the default), radial or conic.
    open var type: CAGradientLayerType = .axial {
        didSet { markChanged(.appearance) }
    }

    override var gradientPoints: GradientPoints? {
        get { GradientPoints(start: startPoint, end: endPoint) }
        set {
            guard let newValue else { return }
            startPoint = newValue.start
            endPoint = newValue.end
        }
    }
}

/// The shape of a gradient.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Along the line from the start point to the end point.
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// Out from the start point to an ellipse through the end point.
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// Around the start point, from the direction of the end point.
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

// MARK: - CAShapeLayer

// Declared in this file for the reason CAGradientLayer is.

/// A layer that draws a path in its own coordinates, as Core Animation's:
/// filled with ``fillColor`` by ``fillRule``, then stroked with
/// ``strokeColor`` between ``strokeStart`` and ``strokeEnd`` of its length,
/// over the background and under the sublayers. The path is not clipped to
/// the bounds (unless `masksToBounds` is set): a shape layer with empty
/// bounds draws its whole path. The compositor draws it at every frame's
/// resolution, so it stays sharp under any scale.
///
/// Defaults are Core Animation's: an opaque black fill, no stroke, a line
/// 1 point wide with butt caps and miter joins (limit 10), no dashes.
/// Non-finite and negative widths and limits are refused.
open class CAShapeLayer: CALayer {
    /// The shape, in the layer's coordinates; a copy is kept, so changing
    /// the path later changes nothing (set it again).
    open var path: CGPath? {
        get { storedPath }
        set {
            storedPath = newValue?.copy()
            markChanged(.appearance)
        }
    }
    private var storedPath: CGPath?

    /// The colour inside the path; nil fills nothing.
    open var fillColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1) {
        didSet {
            markChanged(.appearance)
            if fillColor != oldValue { propertyDidChange("fillColor", from: oldValue) }
        }
    }

    /// Which points are inside the path: non-zero winding (the default) or even-odd.
    open var fillRule: CAShapeLayerFillRule = .nonZero {
        didSet { markChanged(.appearance) }
    }

    /// The colour of the path's outline; nil (the default) strokes nothing.
    open var strokeColor: CGColor? {
        didSet {
            markChanged(.appearance)
            if strokeColor != oldValue { propertyDidChange("strokeColor", from: oldValue) }
        }
    }

    /// Where along the path's length the stroke starts, 0…1; 0 by default.
    open var strokeStart: CGFloat = 0 {
        didSet {
            if !strokeStart.isFinite { strokeStart = oldValue }
            markChanged(.appearance)
            if strokeStart != oldValue { propertyDidChange("strokeStart", from: oldValue) }
        }
    }

    /// Where along the path's length the stroke ends, 0…1; 1 by default.
    open var strokeEnd: CGFloat = 1 {
        didSet {
            if !strokeEnd.isFinite { strokeEnd = oldValue }
            markChanged(.appearance)
            if strokeEnd != oldValue { propertyDidChange("strokeEnd", from: oldValue) }
        }
    }

    /// The stroke's width in points; 1 by default.
    open var lineWidth: CGFloat = 1 {
        didSet {
            if !(lineWidth.isFinite && lineWidth >= 0) { lineWidth = oldValue }
            markChanged(.appearance)
            if lineWidth != oldValue { propertyDidChange("lineWidth", from: oldValue) }
        }
    }

    /// How long a miter join may be, in line widths, before it is bevelled; 10 by default.
    open var miterLimit: CGFloat = 10 {
        didSet {
            if !(miterLimit.isFinite && miterLimit >= 0) { miterLimit = oldValue }
            markChanged(.appearance)
            if miterLimit != oldValue { propertyDidChange("miterLimit", from: oldValue) }
        }
    }

    /// The ends of open subpaths; `.butt` by default.
    open var lineCap: CAShapeLayerLineCap = .butt {
        didSet { markChanged(.appearance) }
    }

    /// The corners of the stroke; `.miter` by default.
    open var lineJoin: CAShapeLayerLineJoin = .miter {
        didSet { markChanged(.appearance) }
    }

    /// How far into ``lineDashPattern`` the stroke starts; 0 by default.
    open var lineDashPhase: CGFloat = 0 {
        didSet {
            if !lineDashPhase.isFinite { lineDashPhase = oldValue }
            markChanged(.appearance)
            if lineDashPhase != oldValue { propertyDidChange("lineDashPhase", from: oldValue) }
        }
    }

    /// Lengths of painted and unpainted stretches, alternately, in points;
    /// nil (the default) draws a solid line.
    open var lineDashPattern: [NSNumber]? {
        didSet { markChanged(.appearance) }
    }

    override var shapeValues: ShapeValues? {
        get {
            ShapeValues(fillColor: fillColor, strokeColor: strokeColor, strokeStart: strokeStart, strokeEnd: strokeEnd,
                        lineWidth: lineWidth, miterLimit: miterLimit, lineDashPhase: lineDashPhase)
        }
        set {
            guard let newValue else { return }
            fillColor = newValue.fillColor
            strokeColor = newValue.strokeColor
            strokeStart = newValue.strokeStart
            strokeEnd = newValue.strokeEnd
            lineWidth = newValue.lineWidth
            miterLimit = newValue.miterLimit
            lineDashPhase = newValue.lineDashPhase
        }
    }
}

/// How a shape layer decides what is inside its path.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// The ends of a shape layer's stroke.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// The corners of a shape layer's stroke.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}
