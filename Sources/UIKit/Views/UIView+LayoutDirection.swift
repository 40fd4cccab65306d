import Foundation

/// Which way the user interface runs: left to right, or right to left
/// (Arabic, Hebrew, Persian, Urdu, …).
public enum UIUserInterfaceLayoutDirection: Int, Sendable {
    case leftToRight = 0
    case rightToLeft = 1
}

/// What a view shows, for deciding whether it flips in a right-to-left
/// layout (UIKit's values).
public enum UISemanticContentAttribute: Int, Sendable {
    /// Ordinary content: it follows the user interface's direction.
    case unspecified = 0
    /// Playback controls (play, rewind, a scrubber): never flipped.
    case playback
    /// Directional controls (a text-alignment control, a D-pad): never flipped.
    case spatial
    /// Always laid out left to right.
    case forceLeftToRight
    /// Always laid out right to left.
    case forceRightToLeft
}

/// Where the application's layout direction comes from when nothing sets it.
///
/// UIKit takes it from the language the application runs in; here that is
/// the process's locale environment, read as POSIX programs read it
/// (`LANGUAGE`'s first entry, then `LC_ALL`, `LC_MESSAGES`, `LANG`): a
/// language written right to left makes the interface right to left.
enum LayoutDirectionDefaults {
    /// Languages written right to left, by ISO 639 code: Arabic, Hebrew (and
    /// its old code), Persian, Urdu, Yiddish, Pashto, Sindhi, Central
    /// Kurdish, Dhivehi and Uyghur.
    static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ckb", "dv", "ug"]

    static func direction(environment: [String: String] = ProcessInfo.processInfo.environment) -> UIUserInterfaceLayoutDirection {
        var candidates: [String?] = []
        if let list = environment["LANGUAGE"], let first = list.split(separator: ":").first { candidates.append(String(first)) }
        candidates += [environment["LC_ALL"], environment["LC_MESSAGES"], environment["LANG"]]
        for case let value? in candidates where !value.isEmpty {
            // The language is what comes before the territory, encoding or modifier: "ar" in "ar_EG.UTF-8".
            var language = ""
            for character in value {
                if character == "_" || character == "." || character == "@" || character == "-" { break }
                language.append(character)
            }
            return rightToLeftLanguages.contains(language.lowercased()) ? .rightToLeft : .leftToRight
        }
        return .leftToRight
    }
}

extension UIView {
    /// The direction a view with `attribute` lays out in, in this
    /// application.
    public class func userInterfaceLayoutDirection(for attribute: UISemanticContentAttribute) -> UIUserInterfaceLayoutDirection {
        userInterfaceLayoutDirection(for: attribute, relativeTo: UIApplication.shared.userInterfaceLayoutDirection)
    }

    /// The direction a view with `semanticContentAttribute` lays out in when
    /// the interface runs in `layoutDirection`: playback and spatial content
    /// and forced left-to-right stay left to right, forced right-to-left is
    /// right to left, and unspecified content follows the interface.
    public class func userInterfaceLayoutDirection(for semanticContentAttribute: UISemanticContentAttribute,
                                                   relativeTo layoutDirection: UIUserInterfaceLayoutDirection) -> UIUserInterfaceLayoutDirection {
        switch semanticContentAttribute {
        case .unspecified: layoutDirection
        case .playback, .spatial, .forceLeftToRight: .leftToRight
        case .forceRightToLeft: .rightToLeft
        }
    }

    /// The direction to arrange this view's own content in: its
    /// ``semanticContentAttribute`` against the application's direction.
    /// As Apple warns, it does not pass down the tree: a subview with an
    /// unspecified attribute follows the application, not its superview.
    public var effectiveUserInterfaceLayoutDirection: UIUserInterfaceLayoutDirection {
        Self.userInterfaceLayoutDirection(for: semanticContentAttribute,
                                          relativeTo: UIApplication.shared.userInterfaceLayoutDirection)
    }

    /// Whether the view lays its own content out right to left.
    var isRightToLeft: Bool { effectiveUserInterfaceLayoutDirection == .rightToLeft }

    /// The view's direction changed: the constraints it holds that speak of
    /// leading and trailing edges are made again, and its content is laid
    /// out and drawn again.
    func layoutDirectionDidChange() {
        rootLayoutEngine?.reinstallDirectionalConstraints(ownedBy: self)
        flipDirectionalMargins()
        setNeedsLayout()
        setNeedsDisplay()
    }
}
