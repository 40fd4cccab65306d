/// One filled outline of a symbol: SVG path data in Bootstrap Icons'
/// 16 × 16 box, y down.
struct SymbolShape: Sendable {
    let data: String
    let evenOdd: Bool

    init(_ data: String, evenOdd: Bool = false) {
        self.data = data
        self.evenOdd = evenOdd
    }
}

/// The symbols `UIImage(systemName:)` knows: a subset of SF Symbols' names,
/// each drawn with the outline of the Bootstrap Icons icon most like it
/// (``outlines``, made by `scripts/import-symbols`; docs/resources.md says how
/// to add more). Apple's SF Symbols cannot be redistributed; Bootstrap
/// Icons are MIT-licensed and, like SF Symbols, filled outlines.
enum SymbolCatalog {
    /// The size of the box the outlines are drawn in.
    static let outlineBox: CGFloat = 16
    /// A symbol's point size when none is configured: the body text
    /// style's 17 points, UIKit's default symbol configuration.
    static let defaultPointSize: CGFloat = 17
    /// How much wider than its point size a symbol image is: SF Symbols
    /// at 17 points measure about 20 to 24 points across (chosen: 20.4).
    static let imageSizePerPointSize: CGFloat = 1.2

    /// The names there are outlines for, sorted.
    static var names: [String] { outlines.keys.sorted() }

    /// The symbol `name` as a template image `pointSize` × 1.2 points
    /// square, drawn black at `scale`; nil for a name there is no outline
    /// for, or outline data that cannot be read.
    static func image(named name: String, pointSize: CGFloat, scale: CGFloat) -> UIImage? {
        guard let shapes = outlines[name], let paths = try? shapes.map({ (try SVGPathDataReader.path($0.data), $0.evenOdd) })
        else { return nil }
        let side = pointSize * imageSizePerPointSize
        let pixels = Int((side * scale).rounded(.up))
        guard pixels > 0, pixels <= 4096,
              let context = CGContext(data: nil, width: pixels, height: pixels, bitsPerComponent: 8, bytesPerRow: 0,
                                      space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        // The bitmap's first row is at the top of y-up space; the outlines
        // are y down.
        let k = CGFloat(pixels) / outlineBox
        context.concatenate(CGAffineTransform(a: k, b: 0, c: 0, d: -k, tx: 0, ty: CGFloat(pixels)))
        context.setFillColor(UIColor.black.cgColor)
        for (path, evenOdd) in paths {
            context.addPath(path)
            context.fillPath(using: evenOdd ? .evenOdd : .winding)
        }
        guard let image = context.makeImage() else { return nil }
        return UIImage(cgImage: image, scale: CGFloat(pixels) / side, renderingMode: .alwaysTemplate, isSymbolImage: true)
    }
}
