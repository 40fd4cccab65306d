extension Scene {
    /// More views than this in one scene are refused (chosen here: far more
    /// than a screen shows, few enough to build and draw in a moment).
    public static let maximumViewCount = 10_000
    /// Coordinates and lengths beyond ± this many points are refused
    /// (chosen here: far beyond any screen or content, and still exact
    /// in the compositor's arithmetic).
    public static let maximumCoordinate: Double = 1_000_000
    /// The largest scale (chosen here; screens have 1, 2 or 3).
    public static let maximumScale: Double = 10
    /// The largest font size, UIFont's.
    public static let maximumFontSize: Double = 4096

    /// Reads a scene file's bytes. Throws the first problem found, with its
    /// line, column and field.
    public static func read(_ bytes: [UInt8]) throws(SceneFileError) -> Scene {
        let root = try JSONReader.read(bytes)
        var decoder = SceneDecoder()
        return try decoder.scene(root)
    }
}

/// Turns the JSON tree into a ``Scene``, checking every field.
private struct SceneDecoder {
    var viewCount = 0

    mutating func scene(_ node: JSONNode) throws(SceneFileError) -> Scene {
        var object = try ObjectReader(node, field: "")
        var scene = Scene()
        if let size = object.take("size") {
            let (w, h) = try pair(size, field: "size", nonNegative: true)
            guard w > 0, h > 0 else { throw SceneFileError(position: size.position, field: "size", message: "the width and height must be greater than 0") }
            scene.width = w; scene.height = h
            scene.sizePosition = size.position
        }
        if let scale = object.take("scale") {
            scene.scale = try number(scale, field: "scale", in: 0...Scene.maximumScale)
            guard scene.scale > 0 else { throw SceneFileError(position: scale.position, field: "scale", message: "the scale must be greater than 0") }
        }
        if let color = object.take("backgroundColor") { scene.backgroundColor = try self.color(color, field: "backgroundColor") }
        if let views = object.take("views") { scene.views = try viewList(views, field: "views") }
        try object.finish(known: ["size", "scale", "backgroundColor", "views"], what: "a scene")
        return scene
    }

    mutating func viewList(_ node: JSONNode, field: String) throws(SceneFileError) -> [SceneView] {
        guard case .array(let elements) = node.value else {
            throw SceneFileError(position: node.position, field: field, message: "expected an array of views")
        }
        var views: [SceneView] = []
        for (index, element) in elements.enumerated() {
            views.append(try view(element, field: "\(field)[\(index)]"))
        }
        return views
    }

    static let commonKeys = [
        "type", "name", "frame", "backgroundColor", "alpha", "hidden", "clipsToBounds", "cornerRadius",
        "maskedCorners", "borderWidth", "borderColor", "shadow", "transform", "contentMode", "tintColor", "subviews", "mask",
    ]

    static func keys(of kind: SceneView.Kind) -> [String] {
        switch kind {
        case .view: []
        case .label: ["text", "font", "textColor", "textAlignment", "numberOfLines"]
        case .button: ["title", "font", "titleColor", "buttonType", "enabled"]
        case .switch: ["on", "enabled"]
        case .slider: ["value", "minimumValue", "maximumValue", "enabled"]
        case .imageView: ["image"]
        case .scrollView: ["contentSize", "contentOffset"]
        }
    }

    mutating func view(_ node: JSONNode, field: String) throws(SceneFileError) -> SceneView {
        viewCount += 1
        guard viewCount <= Scene.maximumViewCount else {
            throw SceneFileError(position: node.position, field: field, message: "more than \(Scene.maximumViewCount) views in one scene")
        }
        var object = try ObjectReader(node, field: field)
        var view = SceneView()
        view.position = node.position
        view.field = field
        if let type = object.take("type") {
            let name = try string(type, field: "\(field).type")
            guard let kind = SceneView.Kind(rawValue: name) else {
                throw SceneFileError(position: type.position, field: "\(field).type",
                                     message: "unknown view type \"\(name)\"; known: \(SceneView.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            view.kind = kind
        }
        if let name = object.take("name") { view.name = try string(name, field: "\(field).name") }
        guard let frame = object.take("frame") else {
            throw SceneFileError(position: node.position, field: field, message: "a view needs a \"frame\": [x, y, width, height]")
        }
        view.frame = try rect(frame, field: "\(field).frame")
        if let v = object.take("backgroundColor") { view.backgroundColor = try color(v, field: "\(field).backgroundColor") }
        if let v = object.take("alpha") { view.alpha = try number(v, field: "\(field).alpha", in: 0...1) }
        if let v = object.take("hidden") { view.isHidden = try bool(v, field: "\(field).hidden") }
        if let v = object.take("clipsToBounds") { view.clipsToBounds = try bool(v, field: "\(field).clipsToBounds") }
        if let v = object.take("cornerRadius") { view.cornerRadius = try length(v, field: "\(field).cornerRadius") }
        if let v = object.take("maskedCorners") { view.maskedCorners = try corners(v, field: "\(field).maskedCorners") }
        if let v = object.take("borderWidth") { view.borderWidth = try length(v, field: "\(field).borderWidth") }
        if let v = object.take("borderColor") { view.borderColor = try color(v, field: "\(field).borderColor") }
        if let v = object.take("shadow") { view.shadow = try shadow(v, field: "\(field).shadow") }
        if let v = object.take("transform") { view.transform = try transform(v, field: "\(field).transform") }
        if let v = object.take("contentMode") { view.contentMode = try name(v, field: "\(field).contentMode", among: Self.contentModes) }
        if let v = object.take("tintColor") { view.tintColor = try color(v, field: "\(field).tintColor") }

        switch view.kind {
        case .view: break
        case .label, .button:
            let textKey = view.kind == .label ? "text" : "title"
            if let v = object.take(textKey) { view.text = try string(v, field: "\(field).\(textKey)") }
            if let v = object.take("font") { try font(v, field: "\(field).font", into: &view) }
            if view.kind == .label {
                if let v = object.take("textColor") { view.textColor = try color(v, field: "\(field).textColor") }
                if let v = object.take("textAlignment") { view.textAlignment = try name(v, field: "\(field).textAlignment", among: Self.textAlignments) }
                if let v = object.take("numberOfLines") { view.numberOfLines = Int(try integer(v, field: "\(field).numberOfLines", in: 0...1_000_000)) }
            } else {
                if let v = object.take("titleColor") { view.textColor = try color(v, field: "\(field).titleColor") }
                if let v = object.take("buttonType") { view.buttonType = try name(v, field: "\(field).buttonType", among: ["system", "custom"]) }
                if let v = object.take("enabled") { view.isEnabled = try bool(v, field: "\(field).enabled") }
            }
        case .switch:
            if let v = object.take("on") { view.isOn = try bool(v, field: "\(field).on") }
            if let v = object.take("enabled") { view.isEnabled = try bool(v, field: "\(field).enabled") }
        case .slider:
            let limit = -Scene.maximumCoordinate...Scene.maximumCoordinate
            if let v = object.take("minimumValue") { view.minimumValue = try number(v, field: "\(field).minimumValue", in: limit) }
            if let v = object.take("maximumValue") { view.maximumValue = try number(v, field: "\(field).maximumValue", in: limit) }
            if let v = object.take("value") { view.value = try number(v, field: "\(field).value", in: limit) }
            if let v = object.take("enabled") { view.isEnabled = try bool(v, field: "\(field).enabled") }
        case .imageView:
            if let v = object.take("image") {
                view.imagePath = try string(v, field: "\(field).image")
                view.imagePosition = v.position
            }
        case .scrollView:
            if let v = object.take("contentSize") {
                let (w, h) = try pair(v, field: "\(field).contentSize", nonNegative: true)
                view.contentWidth = w; view.contentHeight = h
            }
            if let v = object.take("contentOffset") {
                (view.contentOffsetX, view.contentOffsetY) = try pair(v, field: "\(field).contentOffset", nonNegative: false)
            }
        }
        if let v = object.take("subviews") { view.subviews = try viewList(v, field: "\(field).subviews") }
        if let v = object.take("mask") { view.mask = try self.view(v, field: "\(field).mask") }
        try object.finish(known: Self.commonKeys + Self.keys(of: view.kind), what: "a view of type \"\(view.kind.rawValue)\"")
        return view
    }

    static let contentModes = [
        "scaleToFill", "scaleAspectFit", "scaleAspectFill", "redraw", "center", "top", "bottom",
        "left", "right", "topLeft", "topRight", "bottomLeft", "bottomRight",
    ]
    static let textAlignments = ["left", "center", "right", "justified", "natural"]
    static let fontWeights = ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"]
    static let textStyles = [
        "largeTitle", "title1", "title2", "title3", "headline", "subheadline", "body", "callout",
        "footnote", "caption1", "caption2",
    ]
    static let cornerNames = ["topLeft", "topRight", "bottomLeft", "bottomRight"]

    func font(_ node: JSONNode, field: String, into view: inout SceneView) throws(SceneFileError) {
        var object = try ObjectReader(node, field: field)
        if let v = object.take("size") {
            let size = try number(v, field: "\(field).size", in: 0...Scene.maximumFontSize)
            guard size > 0 else { throw SceneFileError(position: v.position, field: "\(field).size", message: "a font size must be greater than 0") }
            view.fontSize = size
        }
        if let v = object.take("weight") { view.fontWeight = try name(v, field: "\(field).weight", among: Self.fontWeights) }
        if let v = object.take("textStyle") { view.textStyle = try name(v, field: "\(field).textStyle", among: Self.textStyles) }
        if view.textStyle != nil && (view.fontSize != nil || view.fontWeight != nil) {
            throw SceneFileError(position: node.position, field: field, message: "give either a \"textStyle\" or a \"size\" and \"weight\", not both")
        }
        try object.finish(known: ["size", "weight", "textStyle"], what: "a font")
    }

    func shadow(_ node: JSONNode, field: String) throws(SceneFileError) -> SceneShadow {
        var object = try ObjectReader(node, field: field)
        var shadow = SceneShadow()
        if let v = object.take("color") { shadow.color = try color(v, field: "\(field).color") }
        if let v = object.take("opacity") { shadow.opacity = try number(v, field: "\(field).opacity", in: 0...1) }
        if let v = object.take("offset") { (shadow.offsetX, shadow.offsetY) = try pair(v, field: "\(field).offset", nonNegative: false) }
        if let v = object.take("radius") { shadow.radius = try length(v, field: "\(field).radius") }
        if let v = object.take("path") {
            var path = try ObjectReader(v, field: "\(field).path")
            guard let rect = path.take("rect") else {
                throw SceneFileError(position: v.position, field: "\(field).path", message: "a shadow path needs a \"rect\": [x, y, width, height]")
            }
            shadow.pathRect = try self.rect(rect, field: "\(field).path.rect")
            if let radius = path.take("cornerRadius") { shadow.pathCornerRadius = try length(radius, field: "\(field).path.cornerRadius") }
            try path.finish(known: ["rect", "cornerRadius"], what: "a shadow path")
        }
        try object.finish(known: ["color", "opacity", "offset", "radius", "path"], what: "a shadow")
        return shadow
    }

    func transform(_ node: JSONNode, field: String) throws(SceneFileError) -> SceneTransform {
        var object = try ObjectReader(node, field: field)
        var transform = SceneTransform()
        let limit = -Scene.maximumCoordinate...Scene.maximumCoordinate
        if let v = object.take("rotation") { transform.rotationDegrees = try number(v, field: "\(field).rotation", in: -360_000...360_000) }
        if let v = object.take("scale") {
            if case .number = v.value {
                transform.scaleX = try number(v, field: "\(field).scale", in: limit)
                transform.scaleY = transform.scaleX
            } else {
                (transform.scaleX, transform.scaleY) = try pair(v, field: "\(field).scale", nonNegative: false)
            }
        }
        if let v = object.take("translation") { (transform.translationX, transform.translationY) = try pair(v, field: "\(field).translation", nonNegative: false) }
        try object.finish(known: ["rotation", "scale", "translation"], what: "a transform")
        return transform
    }

    // MARK: Values

    func number(_ node: JSONNode, field: String, in range: ClosedRange<Double>) throws(SceneFileError) -> Double {
        guard case .number(let value) = node.value else {
            throw SceneFileError(position: node.position, field: field, message: "expected a number, found \(node.kind)")
        }
        guard range.contains(value) else {
            throw SceneFileError(position: node.position, field: field, message: "\(Self.format(value)) is outside \(Self.format(range.lowerBound))…\(Self.format(range.upperBound))")
        }
        return value
    }

    func integer(_ node: JSONNode, field: String, in range: ClosedRange<Double>) throws(SceneFileError) -> Double {
        let value = try number(node, field: field, in: range)
        guard value.rounded() == value else {
            throw SceneFileError(position: node.position, field: field, message: "expected a whole number, found \(Self.format(value))")
        }
        return value
    }

    func length(_ node: JSONNode, field: String) throws(SceneFileError) -> Double {
        try number(node, field: field, in: 0...Scene.maximumCoordinate)
    }

    func bool(_ node: JSONNode, field: String) throws(SceneFileError) -> Bool {
        guard case .bool(let value) = node.value else {
            throw SceneFileError(position: node.position, field: field, message: "expected true or false, found \(node.kind)")
        }
        return value
    }

    func string(_ node: JSONNode, field: String) throws(SceneFileError) -> String {
        guard case .string(let value) = node.value else {
            throw SceneFileError(position: node.position, field: field, message: "expected a string, found \(node.kind)")
        }
        return value
    }

    func name(_ node: JSONNode, field: String, among names: [String]) throws(SceneFileError) -> String {
        let value = try string(node, field: field)
        guard names.contains(value) else {
            throw SceneFileError(position: node.position, field: field, message: "unknown value \"\(value)\"; known: \(names.joined(separator: ", "))")
        }
        return value
    }

    func numbers(_ node: JSONNode, field: String, count: Int, shape: String) throws(SceneFileError) -> [Double] {
        guard case .array(let elements) = node.value, elements.count == count else {
            throw SceneFileError(position: node.position, field: field, message: "expected \(shape), \(count) numbers")
        }
        var values: [Double] = []
        for (index, element) in elements.enumerated() {
            values.append(try number(element, field: "\(field)[\(index)]", in: -Scene.maximumCoordinate...Scene.maximumCoordinate))
        }
        return values
    }

    func rect(_ node: JSONNode, field: String) throws(SceneFileError) -> SceneRect {
        let v = try numbers(node, field: field, count: 4, shape: "[x, y, width, height]")
        guard v[2] >= 0, v[3] >= 0 else {
            throw SceneFileError(position: node.position, field: field, message: "the width and height must not be negative")
        }
        return SceneRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    func pair(_ node: JSONNode, field: String, nonNegative: Bool) throws(SceneFileError) -> (Double, Double) {
        let v = try numbers(node, field: field, count: 2, shape: nonNegative ? "[width, height]" : "[x, y]")
        if nonNegative, v[0] < 0 || v[1] < 0 {
            throw SceneFileError(position: node.position, field: field, message: "the width and height must not be negative")
        }
        return (v[0], v[1])
    }

    func corners(_ node: JSONNode, field: String) throws(SceneFileError) -> [String] {
        guard case .array(let elements) = node.value else {
            throw SceneFileError(position: node.position, field: field, message: "expected an array of corner names (\(Self.cornerNames.joined(separator: ", ")))")
        }
        var corners: [String] = []
        for (index, element) in elements.enumerated() {
            corners.append(try name(element, field: "\(field)[\(index)]", among: Self.cornerNames))
        }
        return corners
    }

    func color(_ node: JSONNode, field: String) throws(SceneFileError) -> SceneColor {
        let text = try string(node, field: field)
        if SceneColor.names.contains(text) { return .named(text) }
        let bad = SceneFileError(position: node.position, field: field,
                                 message: "\"\(text)\" is not a colour: write #RGB, #RGBA, #RRGGBB or #RRGGBBAA, or a UIColor name (\(SceneColor.names.joined(separator: ", ")))")
        let utf8 = Array(text.utf8)
        guard utf8.first == UInt8(ascii: "#") else { throw bad }
        var digits: [UInt32] = []
        for byte in utf8.dropFirst() {
            guard let digit = JSONReader.hexDigit(byte) else { throw bad }
            digits.append(digit)
        }
        let channels: [Double]
        switch digits.count {
        case 3, 4: channels = digits.map { Double($0 * 17) / 255 }
        case 6, 8:
            channels = stride(from: 0, to: digits.count, by: 2).map { (index: Int) -> Double in
                let byte: UInt32 = digits[index] * 16 + digits[index + 1]
                return Double(byte) / 255
            }
        default: throw bad
        }
        return .rgba(channels[0], channels[1], channels[2], channels.count == 4 ? channels[3] : 1)
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// The members of one JSON object, taken one by one; whatever is left at
/// the end is an unknown key, reported with the keys that are known.
private struct ObjectReader {
    private var members: [(key: String, keyPosition: SourcePosition, value: JSONNode)]
    private let field: String

    init(_ node: JSONNode, field: String) throws(SceneFileError) {
        guard case .object(let members) = node.value else {
            throw SceneFileError(position: node.position, field: field, message: "expected an object, found \(node.kind)")
        }
        self.members = members
        self.field = field
    }

    mutating func take(_ key: String) -> JSONNode? {
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        return members.remove(at: index).value
    }

    func finish(known: [String], what: String) throws(SceneFileError) {
        guard let unknown = members.first else { return }
        let path = field.isEmpty ? unknown.key : "\(field).\(unknown.key)"
        throw SceneFileError(position: unknown.keyPosition, field: path,
                             message: "unknown key \"\(unknown.key)\" for \(what); known: \(known.joined(separator: ", "))")
    }
}

extension JSONNode {
    /// What the value is, for errors: "a string", "an array", …
    var kind: String {
        switch value {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string(let text): "the string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
