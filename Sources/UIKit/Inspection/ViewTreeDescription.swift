/// The view tree as the inspector's page shows it: a JSON array of views,
/// window by window, depth first (a superview before its subviews,
/// subviews back to front), each with
/// the number the trace records give it, its parent's number, and
///
/// - `class`, `name` (`accessibilityIdentifier`), `frame` (in its
///   superview) and `screen` (the bounding box of its bounds on the
///   screen, for outlining it over the picture);
/// - its flags: `hidden`, `alpha`, `interaction` (user interaction
///   enabled), `multipleTouch`, `exclusiveTouch`;
/// - `layer`: its class, corner radius, whether it clips, its opacity;
/// - `recognizers`: each with its number, class, name, state and whether
///   it is enabled;
/// - `controller`: the class of the view controller whose view it is.
@MainActor
package enum ViewTreeDescription {
    package static func json(of windows: [UIWindow], encoder: TraceJSONEncoder) -> (json: String, viewCount: Int) {
        var parts: [String] = []
        var count = 0
        for window in windows {
            // Depth first without recursion: a 10,000-view chain must not
            // exhaust the stack.
            var stack: [(view: UIView, parent: Int?, depth: Int)] = [(window, nil, 0)]
            while let (view, parent, depth) = stack.popLast() {
                let id = encoder.number(of: view)
                parts.append(describe(view, id: id, parent: parent, depth: depth, window: window, encoder: encoder))
                count += 1
                for subview in view.subviews.reversed() { stack.append((subview, id, depth + 1)) }
            }
        }
        return ("[" + parts.joined(separator: ",") + "]", count)
    }

    private static func describe(_ view: UIView, id: Int, parent: Int?, depth: Int, window: UIWindow, encoder: TraceJSONEncoder) -> String {
        // Window coordinates, moved by the window's origin (a window's own
        // transform is not honoured: the inspected windows have none).
        let screen = view === window ? window.frame
            : view.convert(view.bounds, to: window).offsetBy(dx: window.frame.minX, dy: window.frame.minY)
        let layer = view.layer
        var text = "{\"id\":\(id),\"parent\":\(parent.map(String.init) ?? "null"),\"depth\":\(depth)"
        text += ",\"class\":\(TraceJSONEncoder.string(String(describing: type(of: view))))"
        if let name = view.accessibilityIdentifier { text += ",\"name\":\(TraceJSONEncoder.string(name))" }
        text += ",\"frame\":\(rect(view.frame)),\"screen\":\(rect(screen))"
        text += ",\"hidden\":\(view.isHidden),\"alpha\":\(TraceJSONEncoder.number(Double(view.alpha)))"
        text += ",\"interaction\":\(view.isUserInteractionEnabled),\"multipleTouch\":\(view.isMultipleTouchEnabled)"
        text += ",\"exclusiveTouch\":\(view.isExclusiveTouch)"
        text += ",\"layer\":{\"class\":\(TraceJSONEncoder.string(String(describing: type(of: layer))))"
        text += ",\"cornerRadius\":\(TraceJSONEncoder.number(Double(layer.cornerRadius))),\"masksToBounds\":\(layer.masksToBounds)"
        text += ",\"opacity\":\(TraceJSONEncoder.number(Double(layer.opacity)))}"
        let recognizers = (view.gestureRecognizers ?? []).map { recognizer in
            var entry = "{\"id\":\(encoder.number(of: recognizer)),\"class\":\(TraceJSONEncoder.string(String(describing: type(of: recognizer))))"
            if let name = recognizer.name { entry += ",\"name\":\(TraceJSONEncoder.string(name))" }
            return entry + ",\"state\":\(TraceJSONEncoder.string(recognizer.state.description)),\"enabled\":\(recognizer.isEnabled)}"
        }
        text += ",\"recognizers\":[\(recognizers.joined(separator: ","))]"
        if let controller = view.next as? UIViewController, controller.viewIfLoaded === view {
            text += ",\"controller\":\(TraceJSONEncoder.string(String(describing: type(of: controller))))"
        }
        return text + "}"
    }

    private static func rect(_ rect: CGRect) -> String {
        let n = { (value: CGFloat) in TraceJSONEncoder.number(Double(value)) }
        return "[\(n(rect.origin.x)),\(n(rect.origin.y)),\(n(rect.size.width)),\(n(rect.size.height))]"
    }
}
