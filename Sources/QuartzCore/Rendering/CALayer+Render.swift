extension CALayer {
    /// Draws the layer and its sublayers into `ctx`, in the layer's own
    /// coordinate space (its bounds' origin at the context's origin, through
    /// the context's current transform and clip), as they are now — not as
    /// last committed. The same compositor draws the screen, so a snapshot
    /// test sees what the screen shows. Like Core Animation's, it draws into
    /// the context's coordinates: in a Core Graphics context (y up) the
    /// picture is upside down unless the context is flipped first, as
    /// UIKit's contexts are.
    ///
    /// As in Core Animation, what in the tree is marked for layout is laid
    /// out first and what is marked for display is displayed, so a layer
    /// tree rendered before any run-loop turn has passed, or in no window
    /// (a snapshot test's view), shows its text and drawing.
    public func render(in ctx: CGContext) {
        layOutMarkedSubtree()
        displayMarkedSubtree()
        let snapshot = RenderLayer.snapshot(of: self, attach: false)
        snapshot.updateSubtreeGeometry(
            CGAffineTransform(translationX: -bounds.minX, y: -bounds.minY).concatenating(ctx.deviceTransform))
        let region = ctx.deviceClip.bounds.intersection(snapshot.subtreeRect)
        guard !region.isEmpty, region.width <= LayerCompositor.maximumPixelCount / region.height else { return }
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: region.area)
        defer { pixels.deallocate() }
        pixels.initialize(repeating: 0, count: region.area)
        let surface = PixelSurface(base: pixels, stride: region.width, extent: region)
        Compositor().draw(snapshot, into: surface, clip: region)
        let buffer = PixelBuffer(base: UnsafeMutableRawPointer(pixels), width: region.width, height: region.height, bytesPerRow: region.width * 4, format: .rgba)
        ctx.drawPixels(buffer, transform: CGAffineTransform(translationX: CGFloat(region.x0), y: CGFloat(region.y0)), interpolation: .none)
    }
}

extension CALayer {
    /// Lays out, top down, every layer of this subtree (masks included)
    /// that is marked, whether or not the marks of its ancestors lead to
    /// it: a layer marked before it joined this tree has none.
    func layOutMarkedSubtree() {
        if needsLayout() { layoutIfNeeded() }
        for layer in sublayers ?? [] { layer.layOutMarkedSubtree() }
        mask?.layOutMarkedSubtree()
    }

    /// Displays every layer of this subtree (masks included) that is marked.
    func displayMarkedSubtree() {
        displayIfNeeded()
        for layer in sublayers ?? [] { layer.displayMarkedSubtree() }
        mask?.displayMarkedSubtree()
    }
}
