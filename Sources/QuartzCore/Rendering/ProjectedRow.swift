import CoreGraphics

extension Homography {
    /// Of the pixels `x0..<x1` of row `y` of the frame, the run that this
    /// mapping (frame pixels to a flat layer's buffer, acting on pixel
    /// centres) can take onto the buffer's `extent` in front of the eye:
    /// every pixel whose point lies within (`extent.x0` − 1, `extent.x1`) ×
    /// (`extent.y0` − 1, `extent.y1`) after the half-pixel shift to texel
    /// centres, with w > 0 — what a bilinear sample of the buffer needs to
    /// be other than transparent — and a pixel more on each side. The
    /// pixels outside it sample nothing, so a row of a turned layer's
    /// bounding box is walked only across the layer.
    ///
    /// Along a row the mapped point's coordinates are u/w and v/w, each of
    /// u, v and w linear in the pixel's centre; with w > 0 each bound is a
    /// linear inequality (u − k·w > 0), which holds on one run of the row.
    /// Each is tested at the row's two ends, with a tolerance of 10⁻⁹ of
    /// its size for the rounding of the loop that steps u, v and w, and
    /// where it changes sign the run ends where it crosses.
    func columns(sampling extent: PixelRect, row y: Int, from x0: Int, to x1: Int) -> Range<Int> {
        guard x0 < x1, !extent.isEmpty else { return x0..<x0 }
        let py = Double(y) + 0.5
        let uc = m01 * py + m02, vc = m11 * py + m12, wc = m21 * py + m22
        let first = Double(x0) + 0.5, last = Double(x1) - 0.5
        var low = first, high = last
        /// Narrows `low...high` to where slope · p + offset > 0.
        func keep(slope: Double, offset: Double) {
            let atFirst = slope * first + offset, atLast = slope * last + offset
            let tolerance = 1e-9 * (abs(slope) * max(abs(first), abs(last)) + abs(offset))
            let inFirst = atFirst > -tolerance, inLast = atLast > -tolerance
            if inFirst && inLast { return }
            if !inFirst && !inLast {
                low = .infinity
                return
            }
            let crossing = first + (last - first) * ((-tolerance - atFirst) / (atLast - atFirst))
            if inFirst { high = min(high, crossing) } else { low = max(low, crossing) }
        }
        keep(slope: m20, offset: wc)
        let left = Double(extent.x0) - 0.5, right = Double(extent.x1) + 0.5
        let top = Double(extent.y0) - 0.5, bottom = Double(extent.y1) + 0.5
        keep(slope: m00 - left * m20, offset: uc - left * wc)
        keep(slope: right * m20 - m00, offset: right * wc - uc)
        keep(slope: m10 - top * m20, offset: vc - top * wc)
        keep(slope: bottom * m20 - m10, offset: bottom * wc - vc)
        guard low <= high, low.isFinite, high.isFinite else { return x0..<x0 }
        // Centres low…high are pixels low − ½ … high − ½; a pixel more each side.
        let start = max(x0, Int((low - 0.5).rounded(.down)) - 1)
        let end = min(x1, Int((high - 0.5).rounded(.down)) + 2)
        return start < end ? start..<end : x0..<x0
    }
}
