/// A view tree described in a scene file (JSON), read by ``Scene/read(_:)``.
/// The format is in docs/scene-files.md; `openuikit render` draws one.
///
/// Values are checked as they are read: every number finite and within
/// the stated limits, every name one of the known ones, every key known,
/// so that building views from a scene never meets a bad value.
public struct Scene: Sendable {
    /// The window's size in points, and the scale of the picture.
    public var width: Double = 390
    public var height: Double = 844
    public var scale: Double = 3
    /// Where `width`, `height` and `scale` are, for errors about the frame
    /// they make together.
    public var sizePosition = SourcePosition(line: 1, column: 1)
    /// The window's background.
    public var backgroundColor: SceneColor = .named("white")
    public var views: [SceneView] = []

    public init() {}
}

/// A colour: `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` in sRGB, or one of
/// UIColor's names.
public enum SceneColor: Equatable, Sendable {
    /// Components in 0…1, not premultiplied.
    case rgba(Double, Double, Double, Double)
    /// One of ``names``.
    case named(String)

    /// The colour names a scene may use: UIColor's class properties of the
    /// same name.
    public static let names = [
        "black", "darkGray", "lightGray", "white", "gray", "red", "green", "blue", "cyan", "yellow",
        "magenta", "orange", "purple", "brown", "clear", "systemBackground", "systemBlue", "systemGreen",
        "systemGray", "systemFill",
    ]
}

/// An affine transform as a designer writes it: scaled, then rotated
/// (clockwise on screen, in degrees), then translated, about the view's
/// centre as UIKit's `transform` is.
public struct SceneTransform: Equatable, Sendable {
    public var rotationDegrees: Double = 0
    public var scaleX: Double = 1
    public var scaleY: Double = 1
    public var translationX: Double = 0
    public var translationY: Double = 0

    public init() {}
}

/// A layer's shadow.
public struct SceneShadow: Equatable, Sendable {
    public var color: SceneColor = .named("black")
    public var opacity: Double = 0.5
    public var offsetX: Double = 0
    public var offsetY: Double = 3
    public var radius: Double = 3
    /// The shape casting the shadow instead of the view's background: a
    /// rectangle in the view's coordinates, rounded by `pathCornerRadius`
    /// (`layer.shadowPath`).
    public var pathRect: SceneRect?
    public var pathCornerRadius: Double = 0

    public init() {}
}

public struct SceneRect: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// One view and its subviews.
public struct SceneView: Sendable {
    /// The UIKit class the view is.
    public enum Kind: String, CaseIterable, Sendable {
        case view, label, button, `switch`, slider, imageView, scrollView
    }

    public var kind: Kind = .view
    /// What the scene calls the view: its `accessibilityIdentifier`, which
    /// traces and the inspector show.
    public var name: String?
    public var position = SourcePosition(line: 1, column: 1)
    /// The field path of this view, for errors found while building it.
    public var field = ""
    public var frame = SceneRect(x: 0, y: 0, width: 0, height: 0)
    public var backgroundColor: SceneColor?
    public var alpha: Double = 1
    public var isHidden = false
    public var clipsToBounds = false
    public var cornerRadius: Double = 0
    /// Which corners round: any of "topLeft", "topRight", "bottomLeft", "bottomRight".
    public var maskedCorners: [String]?
    public var borderWidth: Double = 0
    public var borderColor: SceneColor?
    public var shadow: SceneShadow?
    public var transform: SceneTransform?
    /// A `UIView.ContentMode` case name.
    public var contentMode: String?
    public var tintColor: SceneColor?

    // Labels and buttons.
    public var text: String?
    public var fontSize: Double?
    /// A `UIFont.Weight` name.
    public var fontWeight: String?
    /// A `UIFont.TextStyle` name (`body`, `headline`, …).
    public var textStyle: String?
    public var textColor: SceneColor?
    /// An `NSTextAlignment` case name.
    public var textAlignment: String?
    public var numberOfLines: Int?

    // Controls.
    /// "system" or "custom".
    public var buttonType = "system"
    public var isEnabled = true
    public var isOn = false
    public var value: Double = 0
    public var minimumValue: Double = 0
    public var maximumValue: Double = 1

    // Image views: a PNG or JPEG file, relative to the scene file.
    public var imagePath: String?
    public var imagePosition = SourcePosition(line: 1, column: 1)

    // Scroll views.
    public var contentWidth: Double?
    public var contentHeight: Double?
    public var contentOffsetX: Double = 0
    public var contentOffsetY: Double = 0

    public var subviews: [SceneView] = []

    /// The view whose alpha masks this one (`UIView.mask`), in this view's
    /// bounds coordinates; not in the view tree.
    public var mask: SceneView? {
        get { maskStorage.first }
        set { maskStorage = newValue.map { [$0] } ?? [] }
    }
    /// An array, as a struct cannot hold an optional of itself.
    private var maskStorage: [SceneView] = []

    public init() {}
}
