import Foundation

/// The animatable properties of a layer, as one value: read from the model
/// layer, changed by its animations in order, and then shown (the
/// compositor's copy) or handed out (`presentation()`).
///
/// Key paths, as in Core Animation: `position` (`.x`, `.y`), `bounds`
/// (`.origin`, `.origin.x`, `.origin.y`, `.size`, `.size.width`,
/// `.size.height`), `anchorPoint` (`.x`, `.y`), `transform`
/// (`.scale`, `.scale.x`, `.scale.y`, `.rotation`, `.rotation.z`,
/// `.translation`, `.translation.x`, `.translation.y`),
/// `sublayerTransform`, `zPosition`, `opacity`, `cornerRadius`,
/// `borderWidth`, `backgroundColor`, `borderColor`, `shadowColor`,
/// `shadowOpacity`, `shadowOffset`, `shadowRadius`.
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
        case "backgroundColor", "borderWidth", "borderColor", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius": return .appearance
        case transitionKey: return [.group, .appearance]
        default: return nil
        }
    }

    /// The value at `keyPath`; nil for a key path these values do not hold.
    package func value(forKeyPath keyPath: String) -> AnimatableValue? {
        switch keyPath {
        case "position": .point(position)
        case "position.x": .scalar(position.x)
        case "position.y": .scalar(position.y)
        case "bounds": .rect(bounds)
        case "bounds.origin": .point(bounds.origin)
        case "bounds.origin.x": .scalar(bounds.origin.x)
        case "bounds.origin.y": .scalar(bounds.origin.y)
        case "bounds.size": .size(bounds.size)
        case "bounds.size.width": .scalar(bounds.size.width)
        case "bounds.size.height": .scalar(bounds.size.height)
        case "anchorPoint": .point(anchorPoint)
        case "anchorPoint.x": .scalar(anchorPoint.x)
        case "anchorPoint.y": .scalar(anchorPoint.y)
        case "transform": .transform(transform)
        case "sublayerTransform": .transform(sublayerTransform)
        case "zPosition": .scalar(zPosition)
        case "opacity": .scalar(Double(opacity))
        case "cornerRadius": .scalar(cornerRadius)
        case "borderWidth": .scalar(borderWidth)
        case "shadowOpacity": .scalar(Double(shadowOpacity))
        case "shadowRadius": .scalar(shadowRadius)
        case "shadowOffset": .size(shadowOffset)
        case "backgroundColor": Self.color(backgroundColor)
        case "borderColor": Self.color(borderColor)
        case "shadowColor": Self.color(shadowColor)
        default: Self.transformPart(keyPath).map { part in
            let parts = TransformParts(transform)
            return part.read(parts)
        }
        }
    }

    /// Sets the value at `keyPath`; a value of another shape is ignored.
    package mutating func set(_ value: AnimatableValue, forKeyPath keyPath: String) {
        switch (keyPath, value) {
        case ("position", .point(let p)): position = p
        case ("position.x", .scalar(let v)): position.x = v
        case ("position.y", .scalar(let v)): position.y = v
        case ("bounds", .rect(let r)): bounds = r
        case ("bounds.origin", .point(let p)): bounds.origin = p
        case ("bounds.origin.x", .scalar(let v)): bounds.origin.x = v
        case ("bounds.origin.y", .scalar(let v)): bounds.origin.y = v
        case ("bounds.size", .size(let s)): bounds.size = s
        case ("bounds.size.width", .scalar(let v)): bounds.size.width = v
        case ("bounds.size.height", .scalar(let v)): bounds.size.height = v
        case ("anchorPoint", .point(let p)): anchorPoint = p
        case ("anchorPoint.x", .scalar(let v)): anchorPoint.x = v
        case ("anchorPoint.y", .scalar(let v)): anchorPoint.y = v
        case ("transform", .transform(let t)): transform = t
        case ("sublayerTransform", .transform(let t)): sublayerTransform = t
        case ("zPosition", .scalar(let v)): zPosition = v
        case ("opacity", .scalar(let v)): opacity = Float(v)
        case ("cornerRadius", .scalar(let v)): cornerRadius = max(0, v)
        case ("borderWidth", .scalar(let v)): borderWidth = max(0, v)
        case ("shadowOpacity", .scalar(let v)): shadowOpacity = Float(v)
        case ("shadowRadius", .scalar(let v)): shadowRadius = max(0, v)
        case ("shadowOffset", .size(let s)): shadowOffset = s
        case ("backgroundColor", .color): backgroundColor = Self.cgColor(value)
        case ("borderColor", .color): borderColor = Self.cgColor(value)
        case ("shadowColor", .color): shadowColor = Self.cgColor(value)
        default:
            guard let part = Self.transformPart(keyPath) else { return }
            var parts = TransformParts(transform)
            part.write(value, &parts)
            transform = parts.transform
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

    /// One part of the transform, named by a `transform.` key path.
    private struct TransformPart {
        let read: (TransformParts) -> AnimatableValue
        let write: (AnimatableValue, inout TransformParts) -> Void
    }

    private static func transformPart(_ keyPath: String) -> TransformPart? {
        func scalar(_ get: @escaping (TransformParts) -> Double, _ put: @escaping (inout TransformParts, Double) -> Void) -> TransformPart {
            TransformPart(read: { .scalar(get($0)) }, write: { value, parts in
                if case .scalar(let v) = value { put(&parts, v) }
            })
        }
        switch keyPath {
        case "transform.scale":
            return scalar({ ($0.scaleX + $0.scaleY) / 2 }, { $0.scaleX = $1; $0.scaleY = $1 })
        case "transform.scale.x": return scalar({ $0.scaleX }, { $0.scaleX = $1 })
        case "transform.scale.y": return scalar({ $0.scaleY }, { $0.scaleY = $1 })
        case "transform.rotation", "transform.rotation.z": return scalar({ $0.rotation }, { $0.rotation = $1 })
        case "transform.translation.x": return scalar({ $0.translationX }, { $0.translationX = $1 })
        case "transform.translation.y": return scalar({ $0.translationY }, { $0.translationY = $1 })
        case "transform.translation":
            return TransformPart(read: { .size(CGSize(width: $0.translationX, height: $0.translationY)) }, write: { value, parts in
                if case .size(let s) = value { parts.translationX = s.width; parts.translationY = s.height }
            })
        default: return nil
        }
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
        default: break
        }
    }
}
