extension CALayer {
    /// Draws the layer and its sublayers into `ctx`, in the layer's own
    /// coordinate space (its bounds' origin at the context's origin, through
    /// the context's current transform and clip), as they are now — not as
    /// last committed. The same compositor draws the screen, so a snapshot
    /// test sees what the screen shows. Like Core Animation's, it draws into
    /// the context's coordinates: in a Core Graphics context (y up) the
    /// picture is upside down unless the context is flipped first, as
    /// UIKit's contexts are.
    public func render(in ctx: CGContext) {
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
