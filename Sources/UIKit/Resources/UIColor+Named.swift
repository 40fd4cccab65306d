import Foundation

// Colour sets (`Name.colorset/Contents.json`) from asset catalogs, as
// Xcode writes them: each entry of "colors" has an idiom, optional
// appearances, and a colour given either by components in a colour space
// or by a reference to a system colour.

extension UIColor {
    /// The colour set `name` from the main bundle's resources (see
    /// `docs/resources.md` for where they are looked up on Linux), in its
    /// light appearance; nil if there is none or it cannot be read.
    public convenience init?(named name: String) {
        self.init(named: name, in: nil, compatibleWith: nil)
    }

    /// The colour set `name` from `bundle` (the main bundle when nil): the
    /// dark appearance when `traitCollection` asks for it and the set has
    /// one, the light (or "any") one otherwise.
    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        guard let folder = NamedResources.assetFolder(named: name, kind: "colorset", in: NamedResources.defaultBundle(bundle)),
              let color = try? UIColor.colorSet(at: folder, dark: traitCollection?.userInterfaceStyle == .dark)
        else { return nil }
        self.init(cgColor: color.cgColor)
    }

    /// The colour a colour-set folder gives for light or dark appearance.
    static func colorSet(at folder: URL, dark: Bool) throws -> UIColor {
        let contents = try AssetContents(folder: folder)
        for entry in try contents.entries("colors", dark: dark) {
            guard let color = entry["color"] as? [String: Any] else { continue }
            return try self.color(from: color, file: contents.url.path)
        }
        throw AssetCatalogError(file: contents.url.path, problem: "no colour for an iPhone")
    }

    /// One entry's colour: `{"platform", "reference"}` names a system colour
    /// (`systemBlueColor`); otherwise `components` in `color-space`. Wide
    /// gamut spaces (`display-p3`, the extended ones) are taken as sRGB,
    /// since everything here is drawn in sRGB.
    private static func color(from color: [String: Any], file: String) throws -> UIColor {
        if let reference = color["reference"] as? String {
            let name = reference.hasSuffix("Color") ? String(reference.dropLast(5)) : reference
            guard let system = systemColorsByName[name] else {
                throw AssetCatalogError(file: file, problem: "unknown system colour \"\(reference)\"")
            }
            return system
        }
        guard let components = color["components"] as? [String: Any] else {
            throw AssetCatalogError(file: file, problem: "a colour with neither components nor a reference")
        }
        func component(_ key: String) throws -> CGFloat {
            guard let raw = components[key] else { throw AssetCatalogError(file: file, problem: "no \"\(key)\" component") }
            guard let value = colorComponent(raw) else {
                throw AssetCatalogError(file: file, problem: "\"\(key)\" is not a number from 0 to 1 or 0 to 255")
            }
            return value
        }
        let alpha = components["alpha"] == nil ? 1 : try component("alpha")
        if components["white"] != nil {
            return UIColor(white: try component("white"), alpha: alpha)
        }
        return UIColor(red: try component("red"), green: try component("green"), blue: try component("blue"), alpha: alpha)
    }

    /// A component as Xcode writes it: a decimal with a point (`"0.502"`,
    /// 0…1), a hex byte (`"0x80"`, /255) or a whole number (`"128"`, /255);
    /// JSON numbers the same way. Nil for anything else or out of range.
    static func colorComponent(_ raw: Any) -> CGFloat? {
        let text: String
        switch raw {
        case let string as String: text = string.trimmingCharacters(in: .whitespaces)
        case let number as NSNumber: text = number.stringValue
        default: return nil
        }
        let value: Double
        if text.lowercased().hasPrefix("0x") {
            guard let byte = UInt8(text.dropFirst(2), radix: 16) else { return nil }
            value = Double(byte) / 255
        } else if text.contains(".") || text.contains("e") {
            guard let number = Double(text), number.isFinite, (0...1).contains(number) else { return nil }
            value = number
        } else {
            guard let byte = UInt8(text) else { return nil }
            value = Double(byte) / 255
        }
        return CGFloat(value)
    }

    /// The system colours by the names asset catalogs refer to them by
    /// (less the "Color" suffix).
    static let systemColorsByName: [String: UIColor] = [
        "black": .black, "white": .white, "clear": .clear, "darkGray": .darkGray, "lightGray": .lightGray,
        "gray": .gray, "red": .red, "green": .green, "blue": .blue, "cyan": .cyan, "yellow": .yellow,
        "magenta": .magenta, "orange": .orange, "purple": .purple, "brown": .brown,
        "systemRed": .systemRed, "systemOrange": .systemOrange, "systemYellow": .systemYellow,
        "systemGreen": .systemGreen, "systemMint": .systemMint, "systemTeal": .systemTeal,
        "systemCyan": .systemCyan, "systemBlue": .systemBlue, "systemIndigo": .systemIndigo,
        "systemPurple": .systemPurple, "systemPink": .systemPink, "systemBrown": .systemBrown,
        "systemGray": .systemGray, "systemGray2": .systemGray2, "systemGray3": .systemGray3,
        "systemGray4": .systemGray4, "systemGray5": .systemGray5, "systemGray6": .systemGray6,
        "label": .label, "secondaryLabel": .secondaryLabel, "tertiaryLabel": .tertiaryLabel,
        "quaternaryLabel": .quaternaryLabel, "placeholderText": .placeholderText, "link": .link,
        "systemBackground": .systemBackground, "secondarySystemBackground": .secondarySystemBackground,
        "tertiarySystemBackground": .tertiarySystemBackground, "systemGroupedBackground": .systemGroupedBackground,
        "secondarySystemGroupedBackground": .secondarySystemGroupedBackground,
        "tertiarySystemGroupedBackground": .tertiarySystemGroupedBackground,
        "separator": .separator, "opaqueSeparator": .opaqueSeparator,
        "systemFill": .systemFill, "secondarySystemFill": .secondarySystemFill,
        "tertiarySystemFill": .tertiarySystemFill, "quaternarySystemFill": .quaternarySystemFill,
        "tint": .tintColor,
    ]
}
