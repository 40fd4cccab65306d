import Foundation

// Images by name: files and image sets in a bundle's resources
// (NamedResources says where), and symbols by their SF Symbols names.

extension UIImage {
    /// The image `name` from the main bundle's resources; nil if there is
    /// none or it cannot be decoded.
    public convenience init?(named name: String) {
        self.init(named: name, in: nil, compatibleWith: nil)
    }

    /// The image `name` from `bundle` (the main bundle when nil), in the
    /// variant for the trait collection's display scale (the screen's when
    /// unspecified) and appearance.
    ///
    /// `name` may carry an extension (`logo.jpg`); without one, PNG then
    /// JPEG files are tried. Of `logo@3x.png`, `logo@2x.png` and `logo.png`
    /// the one for the scale is taken, else the next larger, else the
    /// largest smaller. An image set (`logo.imageset`) is read the same
    /// way, from its `Contents.json`, with its `template-rendering-intent`.
    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        let bundle = NamedResources.defaultBundle(bundle)
        let scale = NamedResources.preferredScale(for: traitCollection)
        let dark = traitCollection?.userInterfaceStyle == .dark
        guard let found = UIImage.looseFile(named: name, in: bundle, scale: scale)
            ?? NamedResources.assetFolder(named: name, kind: "imageset", in: bundle).flatMap({
                try? UIImage.imageSet(at: $0, scale: scale, dark: dark)
            })
        else { return nil }
        self.init(pixels: found.cgImage, size: found.size, scale: found.scale, renderingMode: found.renderingMode)
    }

    /// The symbol `name` (an SF Symbols name such as `"star.fill"`) at the
    /// default point size, as a template image; nil for a name not in the
    /// documented subset (docs/resources.md lists it).
    public convenience init?(systemName name: String) {
        self.init(systemName: name, withConfiguration: nil)
    }

    /// The symbol `name` at the configuration's point size (17 when nil).
    public convenience init?(systemName name: String, withConfiguration configuration: SymbolConfiguration?) {
        let pointSize = configuration?.pointSize ?? SymbolCatalog.defaultPointSize
        guard let symbol = SymbolCatalog.image(named: name, pointSize: pointSize,
                                               scale: NamedResources.preferredScale(for: configuration?.traitCollection))
        else { return nil }
        self.init(pixels: symbol.cgImage, size: symbol.size, scale: symbol.scale, renderingMode: .alwaysTemplate, isSymbolImage: true)
    }

    /// How a symbol image is drawn. Here only its point size changes the
    /// drawing; the weight is kept for source compatibility (the outlines
    /// have one weight).
    public final class SymbolConfiguration: NSObject, @unchecked Sendable {
        public let pointSize: CGFloat?
        public let weight: SymbolWeight
        let traitCollection: UITraitCollection?

        /// A configuration for symbols `pointSize` points high; sizes that
        /// are not finite and positive mean the default.
        public init(pointSize: CGFloat) {
            self.pointSize = pointSize.isFinite && pointSize > 0 ? pointSize : nil
            weight = .unspecified
            traitCollection = nil
        }

        public init(pointSize: CGFloat, weight: SymbolWeight) {
            self.pointSize = pointSize.isFinite && pointSize > 0 ? pointSize : nil
            self.weight = weight
            traitCollection = nil
        }

        public init(weight: SymbolWeight) {
            pointSize = nil
            self.weight = weight
            traitCollection = nil
        }
    }

    /// A symbol's stroke weight, as UIKit names them.
    public enum SymbolWeight: Int, Sendable {
        case unspecified = 0, ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
    }

    // MARK: Finding files

    /// The scales to try for `scale`, best first: it, then larger ones
    /// from the nearest, then smaller ones from the nearest.
    static func scalePreference(for scale: CGFloat) -> [Int] {
        let wanted = min(max(Int(scale.rounded()), 1), 3)
        return [wanted] + Array(stride(from: wanted + 1, through: 3, by: 1)) + Array(stride(from: wanted - 1, through: 1, by: -1))
    }

    /// A loose image file for `name` in the bundle's resource directory.
    private static func looseFile(named name: String, in bundle: Bundle, scale: CGFloat) -> UIImage? {
        guard !name.isEmpty, !name.split(separator: "/").contains(where: { $0 == ".." }) else { return nil }
        let root = NamedResources.resourceDirectory(of: bundle)
        let given = (name as NSString).pathExtension.lowercased()
        let stem = ["png", "jpg", "jpeg"].contains(given) ? String(name.dropLast(given.count + 1)) : name
        let extensions = ["png", "jpg", "jpeg"].contains(given) ? [(name as NSString).pathExtension] : ["png", "jpg", "jpeg"]
        for factor in scalePreference(for: scale) {
            let suffix = factor == 1 ? "" : "@\(factor)x"
            for fileExtension in extensions {
                let path = root.appendingPathComponent("\(stem)\(suffix).\(fileExtension)").path
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                return UIImage(data: data, scale: CGFloat(factor))
            }
        }
        return nil
    }

    /// The image an image set's `Contents.json` gives for the scale and
    /// appearance: entries with a file, by ``scalePreference(for:)`` (an
    /// entry without a scale counts as 1x).
    static func imageSet(at folder: URL, scale: CGFloat, dark: Bool) throws -> UIImage {
        let contents = try AssetContents(folder: folder)
        let entries = try contents.entries("images", dark: dark).filter { $0["filename"] is String }
        func factor(_ entry: [String: Any]) -> Int {
            (entry["scale"] as? String).flatMap { Int($0.dropLast()) } ?? 1
        }
        var intent = RenderingMode.automatic
        if let properties = contents.root["properties"] as? [String: Any] {
            switch properties["template-rendering-intent"] as? String {
            case "template": intent = .alwaysTemplate
            case "original": intent = .alwaysOriginal
            default: break
            }
        }
        for wanted in scalePreference(for: scale) {
            guard let entry = entries.first(where: { factor($0) == wanted }), let file = entry["filename"] as? String else { continue }
            guard !file.contains("/"), let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) else {
                throw AssetCatalogError(file: contents.url.path, problem: "\(file) cannot be read")
            }
            guard let image = UIImage(data: data, scale: CGFloat(wanted)) else {
                throw AssetCatalogError(file: contents.url.path, problem: "\(file) is not a PNG or JPEG image")
            }
            return image.withRenderingMode(intent)
        }
        throw AssetCatalogError(file: contents.url.path, problem: "no image for an iPhone")
    }
}

extension NamedResources {
    /// The display scale named resources are chosen for: the trait
    /// collection's, or else the main screen's.
    static func preferredScale(for traitCollection: UITraitCollection?) -> CGFloat {
        if let scale = traitCollection?.displayScale, scale > 0 { return scale }
        // The main screen's scale from any thread: asking which thread this is
        // (Foundation's `Thread.isMainThread`) once answered no on the main
        // actor in a parallel test run, and gave 3 where the screen was at 1.
        return UIScreen.mainScale
    }
}
