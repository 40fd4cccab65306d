import Foundation
import SceneFile
import UIKit

/// Draws a ``Scene``: builds its views in a window of the scene's size,
/// lets the run loop's turn end (layout, display, commit), and composites
/// the committed layer tree into a frame, as the screen would show it.
@MainActor
enum SceneRenderer {
    /// The scene as PNG data. Image files are found relative to
    /// `directory`. Throws a ``SceneFileError`` for what the scene asks that
    /// cannot be drawn (a missing image file, a frame too large).
    static func pngData(of scene: Scene, imagesIn directory: URL) throws -> Data {
        let image = try render(scene, imagesIn: directory)
        return try image.pngData()
    }

    /// The scene's frame as an image of `width × scale` by `height × scale` pixels.
    static func render(_ scene: Scene, imagesIn directory: URL) throws -> CGImage {
        let pixelWidth = Int((scene.width * scene.scale).rounded(.up))
        let pixelHeight = Int((scene.height * scene.scale).rounded(.up))
        guard pixelWidth <= LayerCompositor.maximumPixelCount / pixelHeight else {
            throw SceneFileError(position: scene.sizePosition, field: "size",
                                 message: "\(pixelWidth)×\(pixelHeight) pixels at scale \(SceneRenderer.format(scene.scale)) is more than the \(LayerCompositor.maximumPixelCount) pixels of the largest frame")
        }
        let application = UIApplication.shared
        application.resetForTesting()
        let screen = UIScreen.main
        let savedBounds = screen.bounds, savedScale = screen.scale
        defer { screen.bounds = savedBounds; screen.scale = savedScale }
        let window = try makeWindow(scene, imagesIn: directory)
        application.runLoop.runUntilIdle()

        let compositor = try LayerCompositor(rootLayer: window.layer, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: CGFloat(scene.scale))
        compositor.renderFrame()
        let image = compositor.withUnsafeBytes { bytes in
            CGImage(width: pixelWidth, height: pixelHeight) { buffer in
                buffer.base.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
        }
        window.isHidden = true
        application.resetForTesting()
        guard let image else { throw LayerCompositor.FrameError.tooLarge(width: pixelWidth, height: pixelHeight) }
        return image
    }

    /// The scene's views in a new key window that fills the screen, which
    /// takes the scene's size and scale.
    static func makeWindow(_ scene: Scene, imagesIn directory: URL) throws -> UIWindow {
        let screen = UIScreen.main
        screen.bounds = CGRect(x: 0, y: 0, width: scene.width, height: scene.height)
        screen.scale = CGFloat(scene.scale)
        let window = UIWindow(frame: screen.bounds)
        window.backgroundColor = uiColor(scene.backgroundColor)
        var builder = SceneViewBuilder(directory: directory)
        for description in scene.views { window.addSubview(try builder.view(description)) }
        window.makeKeyAndVisible()
        return window
    }

    static func uiColor(_ color: SceneColor) -> UIColor {
        switch color {
        case .rgba(let r, let g, let b, let a): UIColor(red: r, green: g, blue: b, alpha: a)
        case .named(let name): namedColor(name)
        }
    }

    /// UIColor's colour of each of ``SceneColor/names``.
    static func namedColor(_ name: String) -> UIColor {
        switch name {
        case "black": .black
        case "darkGray": .darkGray
        case "lightGray": .lightGray
        case "white": .white
        case "gray": .gray
        case "red": .red
        case "green": .green
        case "blue": .blue
        case "cyan": .cyan
        case "yellow": .yellow
        case "magenta": .magenta
        case "orange": .orange
        case "purple": .purple
        case "brown": .brown
        case "clear": .clear
        case "systemBackground": .systemBackground
        case "systemBlue": .systemBlue
        case "systemGreen": .systemGreen
        case "systemGray": .systemGray
        case "systemFill": .systemFill
        default: preconditionFailure("SceneColor.names has \(name), which namedColor(_:) does not know")
        }
    }

    /// The decoded pixels all the images of one scene may take together:
    /// 64 Mi pixels, 256 MB at four bytes each, a few photographs at full
    /// size. A file is decoded once however many views show it.
    static let imagePixelBudget = 64 * 1024 * 1024

    static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}

/// Why a scene's image file could not be shown.
private struct ImageFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Makes the UIKit view of each ``SceneView``.
@MainActor
private struct SceneViewBuilder {
    let directory: URL
    /// Decoded images by file, shared by every view that shows one.
    private var images: [String: UIImage] = [:]
    /// What is left of ``SceneRenderer/imagePixelBudget``.
    private var imagePixelsLeft = SceneRenderer.imagePixelBudget

    init(directory: URL) {
        self.directory = directory
    }

    mutating func view(_ description: SceneView) throws -> UIView {
        let view = try make(description)
        apply(description, to: view)
        for subview in description.subviews {
            view.addSubview(try self.view(subview))
        }
        if let mask = description.mask { view.mask = try self.view(mask) }
        return view
    }

    /// The image in the file at `url`, decoded once per scene. Its size is
    /// read first and held against what is left of the scene's budget, so
    /// that no file (a 32 KB PNG claiming 16384 × 16384 pixels, shown by
    /// ten thousand views) can make the renderer allocate more.
    private mutating func image(at url: URL) throws(ImageFileError) -> UIImage {
        if let shared = images[url.path] { return shared }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ImageFileError("cannot read the image file \(url.path)")
        }
        let size: (width: Int, height: Int)
        let decoded: CGImage
        do {
            size = try CGImage.pixelSize(ofEncoded: data)
            guard size.width > 0, size.height > 0, size.width <= imagePixelsLeft / size.height else {
                throw ImageFileError("\(url.path): \(size.width) × \(size.height) pixels is larger than the \(imagePixelsLeft) pixels left of the scene's image budget (\(SceneRenderer.imagePixelBudget) for all its images)")
            }
            decoded = try CGImage.decode(data)
        } catch let error as ImageFileError {
            throw error
        } catch {
            throw ImageFileError("\(url.path) is not a PNG or JPEG image that can be read: \(error)")
        }
        imagePixelsLeft -= size.width * size.height
        let image = UIImage(cgImage: decoded)
        images[url.path] = image
        return image
    }

    private mutating func make(_ d: SceneView) throws -> UIView {
        let frame = CGRect(x: d.frame.x, y: d.frame.y, width: d.frame.width, height: d.frame.height)
        switch d.kind {
        case .view:
            return UIView(frame: frame)
        case .label:
            let label = UILabel(frame: frame)
            label.text = d.text
            if let font = font(d) { label.font = font }
            if let color = d.textColor { label.textColor = SceneRenderer.uiColor(color) }
            if let alignment = d.textAlignment { label.textAlignment = Self.alignments[alignment] ?? .natural }
            if let lines = d.numberOfLines { label.numberOfLines = lines }
            return label
        case .button:
            let button = UIButton(type: d.buttonType == "custom" ? .custom : .system)
            button.frame = frame
            button.setTitle(d.text, for: .normal)
            if let color = d.textColor { button.setTitleColor(SceneRenderer.uiColor(color), for: .normal) }
            if let font = font(d) { button.titleLabel?.font = font }
            button.isEnabled = d.isEnabled
            return button
        case .switch:
            let toggle = UISwitch(frame: frame)
            toggle.setOn(d.isOn, animated: false)
            toggle.isEnabled = d.isEnabled
            return toggle
        case .slider:
            let slider = UISlider(frame: frame)
            slider.minimumValue = Float(d.minimumValue)
            slider.maximumValue = Float(d.maximumValue)
            slider.value = Float(d.value)
            slider.isEnabled = d.isEnabled
            return slider
        case .imageView:
            let imageView = UIImageView(frame: frame)
            if let path = d.imagePath {
                let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
                do {
                    imageView.image = try image(at: url)
                } catch {
                    throw SceneFileError(position: d.imagePosition, field: "\(d.field).image", message: "\(error)")
                }
            }
            return imageView
        case .scrollView:
            let scrollView = UIScrollView(frame: frame)
            scrollView.contentSize = CGSize(width: d.contentWidth ?? d.frame.width, height: d.contentHeight ?? d.frame.height)
            scrollView.contentOffset = CGPoint(x: d.contentOffsetX, y: d.contentOffsetY)
            return scrollView
        }
    }

    private func apply(_ d: SceneView, to view: UIView) {
        view.accessibilityIdentifier = d.name
        if let color = d.backgroundColor { view.backgroundColor = SceneRenderer.uiColor(color) }
        view.alpha = CGFloat(d.alpha)
        view.isHidden = d.isHidden
        view.clipsToBounds = d.clipsToBounds
        if let mode = d.contentMode, let contentMode = Self.contentModes[mode] { view.contentMode = contentMode }
        if let tint = d.tintColor { view.tintColor = SceneRenderer.uiColor(tint) }
        let layer = view.layer
        layer.cornerRadius = CGFloat(d.cornerRadius)
        if let corners = d.maskedCorners {
            var mask: CACornerMask = []
            for corner in corners { mask.formUnion(Self.corners[corner] ?? []) }
            layer.maskedCorners = mask
        }
        layer.borderWidth = CGFloat(d.borderWidth)
        if let color = d.borderColor { layer.borderColor = SceneRenderer.uiColor(color).cgColor }
        if let shadow = d.shadow {
            layer.shadowColor = SceneRenderer.uiColor(shadow.color).cgColor
            layer.shadowOpacity = Float(shadow.opacity)
            layer.shadowOffset = CGSize(width: shadow.offsetX, height: shadow.offsetY)
            layer.shadowRadius = CGFloat(shadow.radius)
            if let r = shadow.pathRect {
                let rect = CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
                // Core Graphics requires corner radii of at most half the rectangle's sides.
                let radius = min(CGFloat(shadow.pathCornerRadius), rect.width / 2, rect.height / 2)
                layer.shadowPath = CGPath(roundedRect: rect, cornerWidth: radius, cornerHeight: radius, transform: nil)
            }
        }
        if let t = d.transform {
            view.transform = CGAffineTransform(scaleX: t.scaleX, y: t.scaleY)
                .concatenating(CGAffineTransform(rotationAngle: t.rotationDegrees * .pi / 180))
                .concatenating(CGAffineTransform(translationX: t.translationX, y: t.translationY))
        }
    }

    private func font(_ d: SceneView) -> UIFont? {
        if let style = d.textStyle, let textStyle = Self.textStyles[style] { return .preferredFont(forTextStyle: textStyle) }
        guard d.fontSize != nil || d.fontWeight != nil else { return nil }
        let weight = d.fontWeight.flatMap { Self.weights[$0] } ?? .regular
        return .systemFont(ofSize: CGFloat(d.fontSize ?? 17), weight: weight)
    }

    static let alignments: [String: NSTextAlignment] = [
        "left": .left, "center": .center, "right": .right, "justified": .justified, "natural": .natural,
    ]
    static let contentModes: [String: UIView.ContentMode] = [
        "scaleToFill": .scaleToFill, "scaleAspectFit": .scaleAspectFit, "scaleAspectFill": .scaleAspectFill,
        "redraw": .redraw, "center": .center, "top": .top, "bottom": .bottom, "left": .left, "right": .right,
        "topLeft": .topLeft, "topRight": .topRight, "bottomLeft": .bottomLeft, "bottomRight": .bottomRight,
    ]
    static let weights: [String: UIFont.Weight] = [
        "ultraLight": .ultraLight, "thin": .thin, "light": .light, "regular": .regular, "medium": .medium,
        "semibold": .semibold, "bold": .bold, "heavy": .heavy, "black": .black,
    ]
    static let textStyles: [String: UIFont.TextStyle] = [
        "largeTitle": .largeTitle, "title1": .title1, "title2": .title2, "title3": .title3, "headline": .headline,
        "subheadline": .subheadline, "body": .body, "callout": .callout, "footnote": .footnote,
        "caption1": .caption1, "caption2": .caption2,
    ]
    static let corners: [String: CACornerMask] = [
        "topLeft": .layerMinXMinYCorner, "topRight": .layerMaxXMinYCorner,
        "bottomLeft": .layerMinXMaxYCorner, "bottomRight": .layerMaxXMaxYCorner,
    ]
}
