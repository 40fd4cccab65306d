/// Shows a layer tree as pixels: keeps a committed copy of the tree (see
/// `CommittedLayerTree`) and draws it into a frame of premultiplied RGBA8
/// pixels, R, G, B, A in memory order, at a scale of pixels per point.
///
/// The frame follows the commits: ``renderFrame()`` draws again only the
/// parts that changed since the last frame, layer by layer, from the
/// committed copy, while the application may already be changing its
/// layers for the next commit.
///
/// ```swift
/// let compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: 1170, pixelHeight: 2532, scale: 3)
/// compositor.renderFrame()          // the whole frame, the first time
/// view.backgroundColor = .red       // …the run loop's turn ends and commits…
/// compositor.renderFrame()          // only the view's pixels
/// ```
@MainActor
public final class LayerCompositor: CommittedTreeHost {
    /// Why a frame cannot be made.
    public enum FrameError: Error, Equatable, CustomStringConvertible {
        /// The width or height is zero or negative, or the scale is not a
        /// positive finite number.
        case invalidSize(width: Int, height: Int, scale: CGFloat)
        /// The frame would exceed ``LayerCompositor/maximumPixelCount`` pixels.
        case tooLarge(width: Int, height: Int)

        public var description: String {
            switch self {
            case .invalidSize(let w, let h, let s): "a frame of \(w)×\(h) pixels at scale \(s) is not a frame"
            case .tooLarge(let w, let h): "a frame of \(w)×\(h) pixels is larger than \(LayerCompositor.maximumPixelCount) pixels"
            }
        }
    }

    /// The largest frame made: 8192×8192 pixels (256 MB), more than any
    /// screen this runs on — chosen here so that a wrong size fails clearly
    /// instead of allocating gigabytes.
    public nonisolated static let maximumPixelCount = 8192 * 8192

    public let pixelWidth: Int
    public let pixelHeight: Int
    public let scale: CGFloat
    /// What the frame shows where no layer draws; opaque black, as a screen.
    public var backgroundColor: CGColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1) {
        didSet { needsFullFrame = true }
    }

    /// The committed copies of the trees drawn, back to front.
    @exclusivity(unchecked) private var trees: [CommittedLayerTree]
    /// The first tree: the only one, for a compositor of one layer tree.
    package var tree: CommittedLayerTree { trees[0] }
    private let compositor = Compositor()

    /// Whether pixels a later opaque layer covers are left out (for tests).
    package var leavesOutOccludedPixels: Bool {
        get { compositor.leavesOutOccludedPixels }
        set { compositor.leavesOutOccludedPixels = newValue }
    }

    /// Whether groups of opaque layers skip their buffer where it would
    /// change nothing (for tests).
    package var flattensGroups: Bool {
        get { compositor.flattensGroups }
        set { compositor.flattensGroups = newValue }
    }

    /// Whether a contents image is sampled only around its ink (for tests).
    package var clipsImagesToInk: Bool {
        get { compositor.clipsImagesToInk }
        set { compositor.clipsImagesToInk = newValue }
    }

    /// Whether a layer turned about a vertical or horizontal line works
    /// out once what its pixels share (for tests).
    package var sharesProjectedAxes: Bool {
        get { compositor.sharesProjectedAxes }
        set { compositor.sharesProjectedAxes = newValue }
    }
    /// Whether a scroll moves the pixels already drawn instead of drawing
    /// them again (always, but in tests and benchmarks that compare the
    /// two; ScrollByCopy.swift).
    package var scrollsByCopy = true {
        didSet { for tree in trees { tree.scrollExtent = scrollsByCopy ? frameRect : nil } }
    }
    /// The frame: ``ownPixels``, or memory given with ``useFrameStorage(_:)``.
    @exclusivity(unchecked) private var pixels: UnsafeMutableBufferPointer<UInt32>
    private let ownPixels: UnsafeMutableBufferPointer<UInt32>
    /// The memory row holding the frame's first row: the frame's memory is
    /// a ring of rows, turned by a scroll of whole rows instead of moving
    /// them (`PixelSurface.rotated(by:)`); readers of its bytes get them in
    /// order (``withUnsafeBytes(_:)``). Memory given with
    /// ``useFrameStorage(_:)`` (a shared buffer) is read by the event
    /// server from the first row its commit names (``frameFirstRow``).
    @exclusivity(unchecked) private var firstRow = 0
    @exclusivity(unchecked) private var needsFullFrame = true
    /// Where the next frame is drawn instead, and what that memory lacks of
    /// the frame as it is (``moveFrameStorage(to:lacking:)``).
    @exclusivity(unchecked) private var nextStorage: (storage: UnsafeMutablePointer<UInt32>, firstRow: Int, lacking: [PixelRect])?
    /// Pixels the last frame copied rather than drew: moved by its scrolls,
    /// or brought over from the memory the frame was in before.
    @exclusivity(unchecked) package private(set) var pixelsCopied = 0
    /// A frame's damage and scrolls as they are gathered, the rectangles it
    /// drew or moved and those it was given, kept from frame to frame: a
    /// refresh allocates nothing for them once warm (the list returned is
    /// this storage, emptied in place by the next frame unless the caller
    /// still holds it).
    @exclusivity(unchecked) private var frameDamage = Damage()
    @exclusivity(unchecked) private var frameScrolls: [PixelScroll] = []
    @exclusivity(unchecked) private var changedRects: [PixelRect] = []
    @exclusivity(unchecked) private var changedCGRects: [CGRect] = []
    @exclusivity(unchecked) private var givenRects: [PixelRect] = []

    /// A compositor for the tree below `rootLayer`, whose superlayer space
    /// (a window's: the screen, in points) is drawn at `scale` pixels per
    /// point into a frame of `pixelWidth`×`pixelHeight`. One compositor per
    /// tree: the committed copy belongs to it.
    public init(rootLayer: CALayer, pixelWidth: Int, pixelHeight: Int, scale: CGFloat) throws {
        guard pixelWidth > 0, pixelHeight > 0, scale.isFinite, scale > 0 else {
            throw FrameError.invalidSize(width: pixelWidth, height: pixelHeight, scale: scale)
        }
        guard pixelWidth <= Self.maximumPixelCount / pixelHeight else {
            throw FrameError.tooLarge(width: pixelWidth, height: pixelHeight)
        }
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.scale = scale
        ownPixels = .allocate(capacity: pixelWidth * pixelHeight)
        ownPixels.initialize(repeating: 0)
        pixels = ownPixels
        let tree = CommittedLayerTree(rootLayer: rootLayer, baseTransform: CGAffineTransform(scaleX: scale, y: scale))
        trees = [tree]
        tree.scrollExtent = frameRect
        tree.commitChanges()
        TransactionState.current.addHost(self)
    }

    /// Draws the trees below `rootLayers` instead, back to front: a
    /// screen's windows, from the lowest level up. The next frame is drawn
    /// whole when the list changed.
    public func setRootLayers(_ rootLayers: [CALayer]) {
        var same = rootLayers.count == trees.count
        if same {
            for index in trees.indices where trees[index].rootLayer !== rootLayers[index] { same = false }
        }
        guard !same else { return }
        let old = trees
        trees = []
        for layer in rootLayers {
            var reused: CommittedLayerTree?
            for tree in old where tree.rootLayer === layer { reused = tree }
            let tree = reused ?? CommittedLayerTree(rootLayer: layer, baseTransform: CGAffineTransform(scaleX: scale, y: scale))
            tree.scrollExtent = scrollsByCopy ? frameRect : nil
            tree.commitChanges()
            trees.append(tree)
        }
        needsFullFrame = true
    }

    isolated deinit {
        ownPixels.deallocate()
    }

    /// From now on the frame is drawn in `storage`: `pixelWidth` ×
    /// `pixelHeight` pixels, rows packed, which must already hold the frame
    /// as it is (the caller copied in what it lacked) and must outlive the
    /// compositor or the next call. The screen's shared buffers: the frame
    /// is drawn straight into the buffer handed to the event server, and
    /// a scroll moves the pixels there, rather than in a frame of its own
    /// copied out afterwards (ScreenFrames).
    package func useFrameStorage(_ storage: UnsafeMutablePointer<UInt32>) {
        nextStorage = nil
        pixels = UnsafeMutableBufferPointer(start: storage, count: pixelWidth * pixelHeight)
        firstRow = 0
    }

    /// The next frame is drawn in `storage`, which holds the frame as it is
    /// except in the rectangles `stale`: that frame copies them in from
    /// where the frame is now (which must stay as it is until then),
    /// together with its own scrolls, so that no pixel is copied twice: a
    /// pixel a scroll moves comes straight from its old place in the old
    /// memory, one drawn anew is not copied at all. The screen's shared
    /// buffers: a frame that must leave a buffer the event server still
    /// holds costs what one drawn in place costs (ScreenFrames).
    ///
    /// `storage` is a ring of rows whose first row is `firstRow`: memory
    /// that missed scrolls of whole rows had its ring turned by them
    /// (`FrameLag`), so it lacks only what those turns do not bring.
    package func moveFrameStorage(to storage: UnsafeMutablePointer<UInt32>, firstRow: Int, lacking stale: [PixelRect]) {
        precondition(firstRow >= 0 && firstRow < pixelHeight, "first row \(firstRow) of a frame of \(pixelHeight) rows")
        nextStorage = (storage, firstRow, stale)
    }

    /// The memory row that holds the frame's top row: what a commit of the
    /// frame's memory names, for the event server to read the frame from.
    package var frameFirstRow: Int { firstRow }

    /// The last frame's scrolls, in the order they were made: each moved
    /// pixels of the frame before (the event server's outputs move their
    /// own copy of the screen by them).
    package var lastFrameScrolls: [PixelScroll] { frameScrolls }

    /// What the last frame drew after its scrolls: the rest of what changed
    /// (what its scrolls brought into view among it).
    package var lastFrameDrawnRects: [PixelRect] { frameDamage.rects }

    /// Adds the last frame's changes to what `lag`'s memory, not drawn in,
    /// lacks: its scroll of whole rows as a turn, the rest as rectangles.
    package func addLastFrame(to lag: inout FrameLag) {
        lag.add(scrolls: frameScrolls, drawn: frameDamage.rects, frame: frameRect)
    }

    package func commitChanges() {
        for tree in trees { tree.commitChanges() }
    }

    /// Whether a commit changed what the next frame shows.
    public var hasDamage: Bool {
        if needsFullFrame { return true }
        for tree in trees where !tree.damage.isEmpty { return true }
        return false
    }

    private var frameRect: PixelRect { PixelRect(x0: 0, y0: 0, x1: pixelWidth, y1: pixelHeight) }

    /// The frame's pixels, its rows where they are in memory now.
    private var frameSurface: PixelSurface {
        PixelSurface(base: pixels.baseAddress!, stride: pixelWidth, extent: frameRect, firstRow: firstRow)
    }

    /// Draws what changed since the last frame (everything, the first time)
    /// and returns the rectangles drawn, in pixels; none when nothing changed.
    @discardableResult
    public func renderFrame() -> [CGRect] {
        let changed = renderFramePixelRects()
        changedCGRects.removeAll(keepingCapacity: true)
        for rect in changed { changedCGRects.append(rect.cgRect) }
        return changedCGRects
    }

    /// ``renderFrame()``'s rectangles as pixel bounds.
    /// The pixels a scroll moved are in them, as well as those drawn.
    package func renderFramePixelRects() -> [PixelRect] {
        frameDamage.removeAll()
        frameScrolls.removeAll(keepingCapacity: true)
        for tree in trees { tree.takeDamage(into: &frameDamage, scrolls: &frameScrolls) }
        if trees.count > 1 {
            // A later window may lie over the scrolled pixels: they are drawn instead.
            for scroll in frameScrolls { frameDamage.add(scroll.rect) }
            frameScrolls.removeAll(keepingCapacity: true)
        }
        if needsFullFrame {
            needsFullFrame = false
            firstRow = 0   // every row is drawn: in order again, for nothing
            frameDamage.removeAll()
            frameScrolls.removeAll(keepingCapacity: true)
            frameDamage.add(frameRect)
        }
        frameDamage.clip(to: frameRect)
        pixelsCopied = 0
        if let (storage, storageFirstRow, stale) = nextStorage {
            moveFrame(to: storage, firstRow: storageFirstRow, lacking: stale, scrolls: frameScrolls, drawn: frameDamage.rects)
        } else {
            for scroll in frameScrolls { pixelsCopied += apply(scroll) }
        }
        draw(frameDamage.rects)
        changedRects.removeAll(keepingCapacity: true)
        for scroll in frameScrolls { changedRects.append(scroll.destination.intersection(frameRect)) }
        changedRects.append(contentsOf: frameDamage.rects)
        return changedRects
    }

    /// Moves the pixels of `scroll` in the frame: by turning the ring of
    /// rows when that copies less, else by moving them; returns how many
    /// pixels it copied.
    private func apply(_ scroll: PixelScroll) -> Int {
        if let (turned, copied) = frameSurface.rotated(by: scroll) {
            firstRow = turned.firstRow
            return copied
        }
        return frameSurface.apply(scroll)
    }

    /// Moves the frame into `storage` (``moveFrameStorage(to:firstRow:lacking:)``),
    /// whichever way copies fewer pixels: each scroll's pixels from their
    /// old place in the old memory, then whatever else of `stale` no scroll
    /// gives and nothing draws; or, when the frame's scrolls all turn the
    /// ring, `stale` brought over as it is and the scrolls made by turning
    /// the new memory's ring, as in place (what a buffer that lacks a few
    /// rows does: a moved list would copy all of its pixels).
    private func moveFrame(to storage: UnsafeMutablePointer<UInt32>, firstRow storageFirstRow: Int, lacking stale: [PixelRect], scrolls: [PixelScroll], drawn: [PixelRect]) {
        nextStorage = nil
        let old = frameSurface
        pixels = UnsafeMutableBufferPointer(start: storage, count: pixelWidth * pixelHeight)
        firstRow = storageFirstRow
        let new = frameSurface
        givenRects.removeAll(keepingCapacity: true)
        givenRects.append(contentsOf: drawn)
        var moving = 0, turning = 0
        for scroll in scrolls {
            let destination = scroll.destination.intersection(frameRect)
            moving += destination.area
            turning += (pixelHeight - scroll.rect.intersection(frameRect).height) * pixelWidth
            givenRects.append(destination)
        }
        for rect in stale {
            turning += rect.intersection(frameRect).area
            rect.intersection(frameRect).forEachPart(notCoveredByAnyOf: givenRects[...]) { moving += $0.area }
        }
        if !scrolls.isEmpty, turning < moving, scrolls.allSatisfy({ $0.turnsRing(of: frameRect) }) {
            for rect in stale { pixelsCopied += new.copy(rect.intersection(frameRect), from: old, dx: 0, dy: 0) }
            for scroll in scrolls { pixelsCopied += apply(scroll) }
            return
        }
        for scroll in scrolls {
            pixelsCopied += new.copy(scroll.destination.intersection(frameRect), from: old, dx: scroll.dx, dy: scroll.dy)
        }
        for rect in stale {
            rect.intersection(frameRect).forEachPart(notCoveredByAnyOf: givenRects[...]) { pixelsCopied += new.copy($0, from: old, dx: 0, dy: 0) }
        }
    }

    /// Makes the next ``renderFrame()`` draw the whole frame.
    package func damageWholeFrame() {
        needsFullFrame = true
    }

    /// Draws the whole frame again, whatever changed.
    public func renderFullFrame() {
        for tree in trees { tree.discardDamage() }
        needsFullFrame = false
        pixelsCopied = 0
        firstRow = 0
        if let (storage, _, _) = nextStorage { useFrameStorage(storage) }
        draw([frameRect])
    }

    private func draw(_ rects: [PixelRect]) {
        let surface = frameSurface
        let clear = PremultipliedColor(backgroundColor).pixel
        for rect in rects {
            // A window's opaque background is drawn over every pixel anyway.
            if trees.first?.root?.opaquelyCovers(rect) != true {
                for y in rect.y0..<rect.y1 { (surface.row(y) + rect.x0).update(repeating: clear, count: rect.width) }
            }
            for tree in trees {
                if let root = tree.root { compositor.draw(root, into: surface, clip: rect) }
            }
        }
    }

    /// The pixel at (x, y) as premultiplied (red, green, blue, alpha).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < pixelWidth && y >= 0 && y < pixelHeight, "(\(x), \(y)) is outside the frame")
        let p = frameSurface.row(y)[x]
        return (UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF), UInt8(p >> 24))
    }

    /// The frame's bytes, rows top to bottom, 4 bytes per pixel (R, G, B, A,
    /// premultiplied), `4 × pixelWidth` bytes per row. Memory given with
    /// `useFrameStorage(_:)` is not turned (its commit named its first
    /// row, and the event server may be reading it): its rows are read
    /// into other memory in order.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        guard firstRow != 0, pixels.baseAddress != ownPixels.baseAddress else {
            putRowsInOrder()
            return try body(UnsafeRawBufferPointer(pixels))
        }
        let inOrder = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: pixels.count)
        defer { inOrder.deallocate() }
        let surface = frameSurface
        for y in 0..<pixelHeight { (inOrder.baseAddress! + y * pixelWidth).initialize(from: surface.row(y), count: pixelWidth) }
        return try body(UnsafeRawBufferPointer(inOrder))
    }

    /// Turns the ring of rows back so that the frame's first row is first
    /// in memory: a reader of the frame's bytes (a PNG, the inspector, a
    /// test) pays for it, not the frames. The smaller of the two parts
    /// goes through a buffer of its size.
    private func putRowsInOrder() {
        guard firstRow != 0 else { return }
        let base = pixels.baseAddress!
        let lastRows = firstRow * pixelWidth, firstRows = pixels.count - lastRows  // as they lie in memory
        let saved = UnsafeMutablePointer<UInt32>.allocate(capacity: min(lastRows, firstRows))
        defer { saved.deallocate() }
        if lastRows <= firstRows {
            saved.initialize(from: base, count: lastRows)
            base.update(from: base + lastRows, count: firstRows)
            (base + firstRows).update(from: saved, count: lastRows)
        } else {
            saved.initialize(from: base + lastRows, count: firstRows)
            (base + firstRows).update(from: base, count: lastRows)
            base.update(from: saved, count: firstRows)
        }
        firstRow = 0
    }
}
