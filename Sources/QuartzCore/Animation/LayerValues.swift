import Foundation

/// The animatable properties of a layer, as one value: read from the model
/// layer, changed by its animations in order, and then shown (the
/// compositor's copy) or handed out (`presentation()`).
///
/// Key paths, as in Core Animation: `position` (`.x`, `.y`), `bounds`
/// (`.origin`, `.origin.x`, `.origin.y`, `.size`, `.size.width`,
/// `.size.height`), `anchorPoint` (`.x`, `.y`), `transform`
/// (`.scale`, `.scale.x`, `.scale.y`, `.rotation`, `.rotation.z`,
/// `.translation`, `.translation.x`, `.translation.y`,
/// `.scale.z`, `.rotation.x`, `.rotation.y`, `.translation.z`), `sublayerTransform`
/// (the same parts), `zPosition`, `opacity`, `cornerRadius`,
/// `borderWidth`, `backgroundColor`, `borderColor`, `shadowColor`,
/// `shadowOpacity`, `shadowOffset`, `shadowRadius`, `contentsRect`
/// (`.origin`, `.origin.x`, `.origin.y`, `.size`, `.size.width`,
/// `.size.height`); a shape layer's `fillColor`, `strokeColor`,
/// `strokeStart`, `strokeEnd`, `lineWidth`, `miterLimit`,
/// `lineDashPhase`; a gradient layer's `startPoint` and `endPoint`. These
/// are the properties Apple lists as animatable (Core Animation
/// Programming Guide, "Animatable Properties", and each class's reference)
/// that are numbers, points, sizes, rectangles, transforms or colours;
/// `contents`, `shadowPath`, a gradient's `colors` and `locations`,
/// `hidden` and `masksToBounds` are not animated here (they change at
/// once).
package struct LayerValues {
    package var bounds: CGRect
    package var position: CGPoint
    package var anchorPoint: CGPoint
    package var transform: CATransform3D
    package var sublayerTransform: CATransform3D
    package var zPosition: CGFloat
    package var opacity: Float
    package var backgroundColor: CGColor?
    package var cornerRadius: CGFloat
    package var borderWidth: CGFloat
    package var borderColor: CGColor?
    package var shadowColor: CGColor?
    package var shadowOpacity: Float
    package var shadowOffset: CGSize
    package var shadowRadius: CGFloat
    /// The part of the contents shown.
    package var contentsRect: CGRect
    /// A shape layer's animatable values; nil for other layers.
    package var shape: ShapeValues?
    /// A gradient layer's start and end points; nil for other layers.
    package var gradientPoints: GradientPoints?
    /// How far a running transition (`CATransition`) has gone; nil when none runs.
    package var transitionProgress: Double?

    /// The key a transition is kept under.
    static let transitionKey = "transition"

    @MainActor package init(of layer: CALayer) {
        bounds = layer.bounds
        position = layer.position
        anchorPoint = layer.anchorPoint
        transform = layer.transform
        sublayerTransform = layer.sublayerTransform
        zPosition = layer.zPosition
        opacity = layer.opacity
        backgroundColor = layer.backgroundColor
        cornerRadius = layer.cornerRadius
        borderWidth = layer.borderWidth
        borderColor = layer.borderColor
        shadowColor = layer.shadowColor
        shadowOpacity = layer.shadowOpacity
        shadowOffset = layer.shadowOffset
        shadowRadius = layer.shadowRadius
        contentsRect = layer.contentsRect
        shape = layer.shapeValues
        gradientPoints = layer.gradientPoints
    }

    /// Whether `keyPath` names a property these values hold.
    package static func isAnimatable(_ keyPath: String) -> Bool {
        changes(forKeyPath: keyPath) != nil
    }

    /// What a change of `keyPath` makes the compositor draw again; nil for
    /// key paths that are not animatable.
    package static func changes(forKeyPath keyPath: String) -> LayerChanges? {
        let root = keyPath.split(separator: ".", maxSplits: 1).first.map(String.init) ?? keyPath
        switch root {
        case "position", "bounds", "anchorPoint", "transform", "sublayerTransform", "zPosition": return .geometry
        case "opacity", "cornerRadius": return .group
        case "backgroundColor", "borderWidth", "borderColor", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius",
             "contentsRect", "fillColor", "strokeColor", "strokeStart", "strokeEnd", "lineWidth", "miterLimit", "lineDashPhase",
             "startPoint", "endPoint": return .appearance
        case transitionKey: return [.group, .appearance]
        default: return nil
        }
    }

    /// The value at `keyPath`; nil for a key path these values do not hold.
    package func value(forKeyPath keyPath: String) -> AnimatableValue? {
        LayerKeyPath(keyPath).map { value(at: $0) }
    }

    /// Sets the value at `keyPath`; a value of another shape, or a key path
    /// these values do not hold, is ignored.
    package mutating func set(_ value: AnimatableValue, forKeyPath keyPath: String) {
        guard let path = LayerKeyPath(keyPath) else { return }
        set(value, at: path)
    }

    /// The value at `path`.
    package func value(at path: LayerKeyPath) -> AnimatableValue {
        switch path {
        case .position: .point(position)
        case .positionX: .scalar(position.x)
        case .positionY: .scalar(position.y)
        case .bounds: .rect(bounds)
        case .boundsOrigin: .point(bounds.origin)
        case .boundsOriginX: .scalar(bounds.origin.x)
        case .boundsOriginY: .scalar(bounds.origin.y)
        case .boundsSize: .size(bounds.size)
        case .boundsWidth: .scalar(bounds.size.width)
        case .boundsHeight: .scalar(bounds.size.height)
        case .anchorPoint: .point(anchorPoint)
        case .anchorPointX: .scalar(anchorPoint.x)
        case .anchorPointY: .scalar(anchorPoint.y)
        case .transform: .transform(transform)
        case .sublayerTransform: .transform(sublayerTransform)
        case .zPosition: .scalar(zPosition)
        case .opacity: .scalar(Double(opacity))
        case .cornerRadius: .scalar(cornerRadius)
        case .borderWidth: .scalar(borderWidth)
        case .shadowOpacity: .scalar(Double(shadowOpacity))
        case .shadowRadius: .scalar(shadowRadius)
        case .shadowOffset: .size(shadowOffset)
        case .backgroundColor: Self.color(backgroundColor)
        case .borderColor: Self.color(borderColor)
        case .shadowColor: Self.color(shadowColor)
        case .contentsRect: .rect(contentsRect)
        case .contentsRectOrigin: .point(contentsRect.origin)
        case .contentsRectSize: .size(contentsRect.size)
        case .contentsRectX: .scalar(contentsRect.origin.x)
        case .contentsRectY: .scalar(contentsRect.origin.y)
        case .contentsRectWidth: .scalar(contentsRect.size.width)
        case .contentsRectHeight: .scalar(contentsRect.size.height)
        case .shape(let part): part.read(shape ?? ShapeValues())
        case .startPoint: .point(gradientPoints?.start ?? GradientPoints().start)
        case .endPoint: .point(gradientPoints?.end ?? GradientPoints().end)
        case .transformPart(let part): part.read(transform)
        case .sublayerTransformPart(let part): part.read(sublayerTransform)
        }
    }

    /// Sets the value at `path`; a value of another shape is ignored.
    package mutating func set(_ value: AnimatableValue, at path: LayerKeyPath) {
        switch (path, value) {
        case (.position, .point(let p)): position = p
        case (.positionX, .scalar(let v)): position.x = v
        case (.positionY, .scalar(let v)): position.y = v
        case (.bounds, .rect(let r)): bounds = r
        case (.boundsOrigin, .point(let p)): bounds.origin = p
        case (.boundsOriginX, .scalar(let v)): bounds.origin.x = v
        case (.boundsOriginY, .scalar(let v)): bounds.origin.y = v
        case (.boundsSize, .size(let s)): bounds.size = s
        case (.boundsWidth, .scalar(let v)): bounds.size.width = v
        case (.boundsHeight, .scalar(let v)): bounds.size.height = v
        case (.anchorPoint, .point(let p)): anchorPoint = p
        case (.anchorPointX, .scalar(let v)): anchorPoint.x = v
        case (.anchorPointY, .scalar(let v)): anchorPoint.y = v
        case (.transform, .transform(let t)): transform = t
        case (.sublayerTransform, .transform(let t)): sublayerTransform = t
        case (.zPosition, .scalar(let v)): zPosition = v
        case (.opacity, .scalar(let v)): opacity = Float(v)
        case (.cornerRadius, .scalar(let v)): cornerRadius = max(0, v)
        case (.borderWidth, .scalar(let v)): borderWidth = max(0, v)
        case (.shadowOpacity, .scalar(let v)): shadowOpacity = Float(v)
        case (.shadowRadius, .scalar(let v)): shadowRadius = max(0, v)
        case (.shadowOffset, .size(let s)): shadowOffset = s
        case (.backgroundColor, .color): backgroundColor = Self.cgColor(value)
        case (.borderColor, .color): borderColor = Self.cgColor(value)
        case (.shadowColor, .color): shadowColor = Self.cgColor(value)
        case (.contentsRect, .rect(let r)): contentsRect = r
        case (.contentsRectOrigin, .point(let p)): contentsRect.origin = p
        case (.contentsRectSize, .size(let s)): contentsRect.size = s
        case (.contentsRectX, .scalar(let v)): contentsRect.origin.x = v
        case (.contentsRectY, .scalar(let v)): contentsRect.origin.y = v
        case (.contentsRectWidth, .scalar(let v)): contentsRect.size.width = v
        case (.contentsRectHeight, .scalar(let v)): contentsRect.size.height = v
        case (.shape(let part), _): if shape != nil { part.write(value, into: &shape!) }
        case (.startPoint, .point(let p)): gradientPoints?.start = p
        case (.endPoint, .point(let p)): gradientPoints?.end = p
        case (.transformPart(let part), _): part.write(value, into: &transform)
        case (.sublayerTransformPart(let part), _): part.write(value, into: &sublayerTransform)
        default: return
        }
    }

    /// A missing colour animates as clear, as Core Animation treats it.
    private static func color(_ color: CGColor?) -> AnimatableValue {
        AnimatableValue(color ?? CGColor(red: 0, green: 0, blue: 0, alpha: 0)) ?? .color(red: 0, green: 0, blue: 0, alpha: 0)
    }

    private static func cgColor(_ value: AnimatableValue) -> CGColor? {
        guard case let .color(r, g, b, a) = value else { return nil }
        return CGColor(red: min(1, max(0, r)), green: min(1, max(0, g)), blue: min(1, max(0, b)), alpha: min(1, max(0, a)))
    }

    /// Writes the values into `layer`, a presentation copy (which marks
    /// nothing and runs no actions).
    @MainActor func write(to layer: CALayer) {
        layer.bounds = bounds
        layer.position = position
        layer.anchorPoint = anchorPoint
        layer.transform = transform
        layer.opacity = opacity
        layer.sublayerTransform = sublayerTransform
        layer.zPosition = zPosition
        layer.backgroundColor = backgroundColor
        layer.cornerRadius = cornerRadius
        layer.borderWidth = borderWidth
        layer.borderColor = borderColor
        layer.shadowColor = shadowColor
        layer.shadowOpacity = shadowOpacity
        layer.shadowOffset = shadowOffset
        layer.shadowRadius = shadowRadius
        layer.contentsRect = contentsRect
        layer.shapeValues = shape
        layer.gradientPoints = gradientPoints
    }

    /// Sets the model property that `keyPath` lies in to these values' (a
    /// property animator leaving its views where they are shown).
    @MainActor package func writeModel(to layer: CALayer, keyPath: String) {
        switch keyPath.split(separator: ".").first.map(String.init) ?? keyPath {
        case "position": layer.position = position
        case "bounds": layer.bounds = bounds
        case "anchorPoint": layer.anchorPoint = anchorPoint
        case "transform": layer.transform = transform
        case "sublayerTransform": layer.sublayerTransform = sublayerTransform
        case "zPosition": layer.zPosition = zPosition
        case "opacity": layer.opacity = opacity
        case "cornerRadius": layer.cornerRadius = cornerRadius
        case "borderWidth": layer.borderWidth = borderWidth
        case "backgroundColor": layer.backgroundColor = backgroundColor
        case "borderColor": layer.borderColor = borderColor
        case "shadowColor": layer.shadowColor = shadowColor
        case "shadowOpacity": layer.shadowOpacity = shadowOpacity
        case "shadowOffset": layer.shadowOffset = shadowOffset
        case "shadowRadius": layer.shadowRadius = shadowRadius
        case "contentsRect": layer.contentsRect = contentsRect
        case "fillColor", "strokeColor", "strokeStart", "strokeEnd", "lineWidth", "miterLimit", "lineDashPhase": layer.shapeValues = shape
        case "startPoint", "endPoint": layer.gradientPoints = gradientPoints
        default: break
        }
    }
}

/// A key path of the animatable values (see ``LayerValues``), read from its
/// string once: an animation applied at every refresh looks its property
/// up by this rather than by comparing strings.
package enum LayerKeyPath: Equatable, Sendable {
    case position, positionX, positionY
    case bounds, boundsOrigin, boundsOriginX, boundsOriginY, boundsSize, boundsWidth, boundsHeight
    case anchorPoint, anchorPointX, anchorPointY
    case transform, sublayerTransform, zPosition, opacity, cornerRadius, borderWidth
    case shadowOpacity, shadowRadius, shadowOffset
    case backgroundColor, borderColor, shadowColor
    case contentsRect, contentsRectOrigin, contentsRectSize, contentsRectX, contentsRectY, contentsRectWidth, contentsRectHeight
    /// A shape layer's property: `strokeEnd`, `fillColor`, ….
    case shape(ShapeValues.Part)
    /// A gradient layer's `startPoint` and `endPoint`.
    case startPoint, endPoint
    /// One part of the transform: `transform.scale`, `transform.rotation.z`, ….
    case transformPart(TransformPart)
    /// One part of the sublayer transform: `sublayerTransform.rotation.y`, ….
    case sublayerTransformPart(TransformPart)

    /// The parts of a transform a key path names, as Apple's key-value
    /// coding extensions for `CATransform3D` list them: `rotation.x`,
    /// `rotation.y`, `rotation.z` (in radians) and `rotation` (the same as
    /// `rotation.z`); `scale.x`, `scale.y`, `scale.z` and `scale` ("the
    /// average of all three scale factors"; setting it sets all three);
    /// `translation.x`, `translation.y`, `translation.z` and `translation`
    /// (x and y, as a size). Read from the transform taken apart
    /// (``TransformDecomposition``), changed, and put together again, the
    /// other parts kept.
    package enum TransformPart: Equatable, Sendable {
        case scale, scaleX, scaleY, scaleZ
        case rotationX, rotationY, rotationZ
        case translation, translationX, translationY, translationZ

        /// Reads the part from the key path's tail after `transform.`; nil
        /// for another tail.
        init?(tail: Substring) {
            switch tail {
            case "scale": self = .scale
            case "scale.x": self = .scaleX
            case "scale.y": self = .scaleY
            case "scale.z": self = .scaleZ
            case "rotation.x": self = .rotationX
            case "rotation.y": self = .rotationY
            case "rotation", "rotation.z": self = .rotationZ
            case "translation": self = .translation
            case "translation.x": self = .translationX
            case "translation.y": self = .translationY
            case "translation.z": self = .translationZ
            default: return nil
            }
        }

        func read(_ transform: CATransform3D) -> AnimatableValue {
            let parts = TransformDecomposition(transform) ?? TransformDecomposition()
            switch self {
            case .scale: return .scalar(parts.scale.sum() / 3)
            case .scaleX: return .scalar(parts.scale.x)
            case .scaleY: return .scalar(parts.scale.y)
            case .scaleZ: return .scalar(parts.scale.z)
            case .rotationX: return .scalar(parts.angles.x)
            case .rotationY: return .scalar(parts.angles.y)
            case .rotationZ: return .scalar(parts.angles.z)
            case .translation: return .size(CGSize(width: parts.translation.x, height: parts.translation.y))
            case .translationX: return .scalar(parts.translation.x)
            case .translationY: return .scalar(parts.translation.y)
            case .translationZ: return .scalar(parts.translation.z)
            }
        }

        /// Writes `value` into `transform`'s part; a value of another shape
        /// changes nothing. A transform that cannot be taken apart (`m44` =
        /// 0) is replaced by the part alone.
        func write(_ value: AnimatableValue, into transform: inout CATransform3D) {
            var parts = TransformDecomposition(transform) ?? TransformDecomposition()
            switch (self, value) {
            case (.scale, .scalar(let v)): parts.scale = SIMD3(v, v, v)
            case (.scaleX, .scalar(let v)): parts.scale.x = v
            case (.scaleY, .scalar(let v)): parts.scale.y = v
            case (.scaleZ, .scalar(let v)): parts.scale.z = v
            case (.rotationX, .scalar(let v)): parts.angles.x = v
            case (.rotationY, .scalar(let v)): parts.angles.y = v
            case (.rotationZ, .scalar(let v)): parts.angles.z = v
            case (.translation, .size(let s)): parts.translation.x = s.width; parts.translation.y = s.height
            case (.translationX, .scalar(let v)): parts.translation.x = v
            case (.translationY, .scalar(let v)): parts.translation.y = v
            case (.translationZ, .scalar(let v)): parts.translation.z = v
            default: return
            }
            transform = parts.transform
        }
    }

    /// Nil for a key path the values do not hold.
    package init?(_ keyPath: String) {
        switch keyPath {
        case "position": self = .position
        case "position.x": self = .positionX
        case "position.y": self = .positionY
        case "bounds": self = .bounds
        case "bounds.origin": self = .boundsOrigin
        case "bounds.origin.x": self = .boundsOriginX
        case "bounds.origin.y": self = .boundsOriginY
        case "bounds.size": self = .boundsSize
        case "bounds.size.width": self = .boundsWidth
        case "bounds.size.height": self = .boundsHeight
        case "anchorPoint": self = .anchorPoint
        case "anchorPoint.x": self = .anchorPointX
        case "anchorPoint.y": self = .anchorPointY
        case "transform": self = .transform
        case "sublayerTransform": self = .sublayerTransform
        case "zPosition": self = .zPosition
        case "opacity": self = .opacity
        case "cornerRadius": self = .cornerRadius
        case "borderWidth": self = .borderWidth
        case "shadowOpacity": self = .shadowOpacity
        case "shadowRadius": self = .shadowRadius
        case "shadowOffset": self = .shadowOffset
        case "backgroundColor": self = .backgroundColor
        case "borderColor": self = .borderColor
        case "shadowColor": self = .shadowColor
        case "contentsRect": self = .contentsRect
        case "contentsRect.origin": self = .contentsRectOrigin
        case "contentsRect.size": self = .contentsRectSize
        case "contentsRect.origin.x": self = .contentsRectX
        case "contentsRect.origin.y": self = .contentsRectY
        case "contentsRect.size.width": self = .contentsRectWidth
        case "contentsRect.size.height": self = .contentsRectHeight
        case "fillColor": self = .shape(.fillColor)
        case "strokeColor": self = .shape(.strokeColor)
        case "strokeStart": self = .shape(.strokeStart)
        case "strokeEnd": self = .shape(.strokeEnd)
        case "lineWidth": self = .shape(.lineWidth)
        case "miterLimit": self = .shape(.miterLimit)
        case "lineDashPhase": self = .shape(.lineDashPhase)
        case "startPoint": self = .startPoint
        case "endPoint": self = .endPoint
        default:
            if keyPath.hasPrefix("transform."), let part = TransformPart(tail: keyPath.dropFirst("transform.".count)) {
                self = .transformPart(part)
            } else if keyPath.hasPrefix("sublayerTransform."),
                      let part = TransformPart(tail: keyPath.dropFirst("sublayerTransform.".count)) {
                self = .sublayerTransformPart(part)
            } else {
                return nil
            }
        }
    }
}

/// A shape layer's animatable values (`CAShapeLayer`: "fillColor",
/// "strokeColor", "strokeStart", "strokeEnd", "lineWidth", "miterLimit",
/// "lineDashPhase" are animatable, as Apple's reference marks them).
package struct ShapeValues: Equatable, Sendable {
    package var fillColor: CGColor? = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    package var strokeColor: CGColor?
    package var strokeStart: CGFloat = 0
    package var strokeEnd: CGFloat = 1
    package var lineWidth: CGFloat = 1
    package var miterLimit: CGFloat = 10
    package var lineDashPhase: CGFloat = 0

    package init() {}

    package init(fillColor: CGColor?, strokeColor: CGColor?, strokeStart: CGFloat, strokeEnd: CGFloat,
                 lineWidth: CGFloat, miterLimit: CGFloat, lineDashPhase: CGFloat) {
        self.fillColor = fillColor
        self.strokeColor = strokeColor
        self.strokeStart = strokeStart
        self.strokeEnd = strokeEnd
        self.lineWidth = lineWidth
        self.miterLimit = miterLimit
        self.lineDashPhase = lineDashPhase
    }

    /// One of the values, by its key path.
    package enum Part: Equatable, Sendable {
        case fillColor, strokeColor, strokeStart, strokeEnd, lineWidth, miterLimit, lineDashPhase

        func read(_ values: ShapeValues) -> AnimatableValue {
            func color(_ c: CGColor?) -> AnimatableValue {
                AnimatableValue(c ?? CGColor(red: 0, green: 0, blue: 0, alpha: 0)) ?? .color(red: 0, green: 0, blue: 0, alpha: 0)
            }
            switch self {
            case .fillColor: return color(values.fillColor)
            case .strokeColor: return color(values.strokeColor)
            case .strokeStart: return .scalar(values.strokeStart)
            case .strokeEnd: return .scalar(values.strokeEnd)
            case .lineWidth: return .scalar(values.lineWidth)
            case .miterLimit: return .scalar(values.miterLimit)
            case .lineDashPhase: return .scalar(values.lineDashPhase)
            }
        }

        /// A value of another shape changes nothing; widths and limits stay
        /// at 0 or more, as the layer keeps them.
        func write(_ value: AnimatableValue, into values: inout ShapeValues) {
            switch (self, value) {
            case (.fillColor, .color(let r, let g, let b, let a)): values.fillColor = Self.clamped(r, g, b, a)
            case (.strokeColor, .color(let r, let g, let b, let a)): values.strokeColor = Self.clamped(r, g, b, a)
            case (.strokeStart, .scalar(let v)): values.strokeStart = v
            case (.strokeEnd, .scalar(let v)): values.strokeEnd = v
            case (.lineWidth, .scalar(let v)): values.lineWidth = max(0, v)
            case (.miterLimit, .scalar(let v)): values.miterLimit = max(0, v)
            case (.lineDashPhase, .scalar(let v)): values.lineDashPhase = v
            default: return
            }
        }

        private static func clamped(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> CGColor {
            CGColor(red: min(1, max(0, r)), green: min(1, max(0, g)), blue: min(1, max(0, b)), alpha: min(1, max(0, a)))
        }
    }
}

/// A gradient layer's animatable points (`CAGradientLayer`'s `startPoint`
/// and `endPoint` are animatable, as Apple's reference marks them); the
/// defaults are the layer's.
package struct GradientPoints: Equatable, Sendable {
    package var start = CGPoint(x: 0.5, y: 0)
    package var end = CGPoint(x: 0.5, y: 1)
}
