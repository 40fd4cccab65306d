// The renderer's fast entry points, for the compositor and text drawing in
// this package's other modules: they work in the bitmap's memory
// coordinates (pixels, origin at the top-left of row 0, y down), ignore the
// current transform, colours and alpha, and honour the current clip.

extension CGContext {
    /// The current clip in memory coordinates: `bounds` always, `mask` when
    /// its edges are soft or not a rectangle of whole pixels.
    package var deviceClip: ClipRegion { state.clip }

    /// Fills `rect` (memory coordinates) with `color`. Edge pixels partly
    /// inside get coverage from the fraction of their area inside, so a
    /// rectangle on whole pixels has hard edges. With `.normal` and an
    /// opaque colour, covered pixels are plain 32-bit stores.
    package func fillPixels(_ rect: CGRect, color: PremultipliedColor, blendMode: CGBlendMode = .normal) {
        let sink = PaintSink(buffer: pixels, clip: state.clip, paint: .solid(color), blendMode: blendMode, antialias: true)
        forEachRectSpan(rect, within: state.clip.bounds) { y, x, length, coverage in
            sink.span(y: y, x: x, length: length, coverage: coverage)
        }
    }

    /// Composites `color` through an 8-bit coverage mask (a glyph's bitmap
    /// from FreeType, say) whose top-left pixel lands on pixel (`x`, `y`):
    /// each pixel gets the colour weighted by its mask value and the clip.
    /// `bytesPerRow` may be negative (rows stored bottom up, as FreeType's
    /// bitmaps with a negative pitch), with `mask` at the top row.
    package func compositeMask(
        _ mask: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int,
        atX x: Int, y: Int, color: PremultipliedColor, blendMode: CGBlendMode = .normal
    ) {
        let area = state.clip.bounds.intersection(PixelRect(x0: x, y0: y, x1: x + width, y1: y + height))
        guard !area.isEmpty else { return }
        let sink = PaintSink(buffer: pixels, clip: state.clip, paint: .solid(color), blendMode: blendMode, antialias: true)
        for row in area.y0..<area.y1 {
            sink.span(y: row, x: area.x0, length: area.width, coverages: mask + (row - y) * bytesPerRow + (area.x0 - x))
        }
    }

    /// Draws `source` through `transform` (source pixels → memory pixels,
    /// both y down), its edges anti-aliased, filtered bilinearly unless
    /// `interpolation` is `.none`, with `alpha` applied. The caller keeps
    /// the source's memory alive for the call. Nothing is drawn when the
    /// transform cannot be inverted or is not finite.
    package func drawPixels(
        _ source: PixelBuffer, transform: CGAffineTransform, alpha: CGFloat = 1,
        interpolation: CGInterpolationQuality = .default, blendMode: CGBlendMode = .normal
    ) {
        guard source.width > 0, source.height > 0,
              let sampler = ImageSampler(source: source, transform: transform, alpha: alpha, nearest: interpolation == .none, targetFormat: pixels.format)
        else { return }
        let sink = PaintSink(buffer: pixels, clip: state.clip, paint: .image(sampler), blendMode: blendMode, antialias: antialias)
        let corners = CGRect(x: 0, y: 0, width: source.width, height: source.height).corners.map { $0.applying(transform) }
        if transform.b == 0 && transform.c == 0 {
            forEachRectSpan(CGRect(boundingCorners: corners), within: state.clip.bounds) { y, x, length, coverage in
                sink.span(y: y, x: x, length: length, coverage: coverage)
            }
        } else {
            var outline = DeviceOutline(clippingTo: state.clip.bounds)
            outline.addPolygon(corners)
            outline.render(fillRule: .winding, clip: state.clip.bounds, into: sink)
        }
    }

    /// `drawPixels` for an image, which stays alive for the call.
    package func drawImage(
        _ image: CGImage, transform: CGAffineTransform, alpha: CGFloat = 1,
        interpolation: CGInterpolationQuality = .default, blendMode: CGBlendMode = .normal
    ) {
        withExtendedLifetime(image) {
            drawPixels(image.pixels, transform: transform, alpha: alpha, interpolation: interpolation, blendMode: blendMode)
        }
    }
}

extension CGContext {
    /// Draws `image` scaled to fill `rect`, as Core Graphics does: the
    /// image's first row at the rectangle's top in y-up user space (so in a
    /// context UIKit has flipped it comes out upside down, which is why
    /// `UIImage.draw(in:)` flips it back). Alpha, blend mode, clip and
    /// interpolation quality apply.
    public func draw(_ image: CGImage, in rect: CGRect) {
        let r = rect.standardized
        guard !r.isNull, !r.isEmpty else { return }
        let imageToUser = CGAffineTransform(
            a: r.width / CGFloat(image.width), b: 0, c: 0, d: -r.height / CGFloat(image.height), tx: r.minX, ty: r.maxY
        )
        let nearest = interpolationQuality == .none || !image.shouldInterpolate
        drawImage(image, transform: imageToUser.concatenating(deviceTransform), alpha: state.alpha,
                  interpolation: nearest ? .none : interpolationQuality, blendMode: state.blendMode)
    }
}
