/// Writes trace records as JSON, one object per record on one line (JSON
/// lines), in the format `docs/trace.md` describes and
/// `docs/trace.schema.json` defines.
///
/// Objects (views, recognizers, responders) are written as
/// `{"id": N, "class": "UIButton", "name": "…"}`: `id` numbers the objects
/// of one encoder from 1 in the order it first meets them, and `name` is a
/// view's `accessibilityIdentifier` or a recognizer's `name`, when set. The
/// encoder keeps each object it numbered alive, so that a number never
/// stands for two objects: make one per trace.
@MainActor
public final class TraceJSONEncoder {
    private var numbers: [ObjectIdentifier: Int] = [:]
    /// The numbered objects, kept so that their identifiers are not reused.
    private var numbered: [AnyObject] = []

    /// An encoder that has numbered no object yet.
    public init() {}

    /// The number this encoder gives `object`.
    public func number(of object: AnyObject) -> Int {
        if let number = numbers[ObjectIdentifier(object)] { return number }
        numbered.append(object)
        let number = numbered.count
        numbers[ObjectIdentifier(object)] = number
        return number
    }

    /// `record` as one line of JSON (without the newline).
    public func encode(_ record: TraceRecord) -> String {
        var fields: [(String, String)] = [
            ("t", Self.number(record.timestamp)),
            ("event", record.eventID.map { String($0) } ?? "null"),
            ("touches", "[" + record.touchIDs.map { String($0) }.joined(separator: ",") + "]"),
        ]
        func add(_ key: String, _ value: String) { fields.append((key, value)) }
        func step(_ name: String) { add("step", Self.string(name)) }
        switch record.step {
        case .hidEventReceived(let kind, let serverReadTime, let serverSendTime):
            step("hidEventReceived")
            add("kind", Self.string(kind.rawValue))
            add("serverReadTime", serverReadTime.map(Self.number) ?? "null")
            add("serverSendTime", serverSendTime.map(Self.number) ?? "null")
        case .eventQueued(let type, let queueLength):
            step("eventQueued")
            add("type", Self.string(Self.name(of: type)))
            add("queueLength", String(queueLength))
        case .touchMovesHeld(let frameCount):
            step("touchMovesHeld")
            add("frameCount", String(frameCount))
        case .eventDelivery(let type, let touchCount):
            step("eventDelivery")
            add("type", Self.string(Self.name(of: type)))
            add("touchCount", String(touchCount))
        case .hitTest(let view, let point):
            step("hitTest")
            add("view", object(view))
            add("point", Self.point(point))
        case .pointInside(let view, let point, let result):
            step("pointInside")
            add("view", object(view))
            add("point", Self.point(point))
            add("result", String(result))
        case .hitTestResult(let view, let result):
            step("hitTestResult")
            add("view", object(view))
            add("result", object(result))
        case .touchBound(let view, let window):
            step("touchBound")
            add("view", object(view))
            add("window", object(window))
        case .gestureStateChanged(let recognizer, let from, let to, let reason, let other):
            step("gestureStateChanged")
            add("recognizer", object(recognizer))
            add("view", object(recognizer.view))
            add("from", Self.string(from.description))
            add("to", Self.string(to.description))
            add("reason", Self.string(reason.rawValue))
            add("other", object(other))
        case .touchesDelivered(let phase, let view, let touchCount):
            step("touchesDelivered")
            add("phase", Self.string(Self.name(of: phase)))
            add("view", object(view))
            add("touchCount", String(touchCount))
        case .touchesPassedToNext(let phase, let from, let to):
            step("touchesPassedToNext")
            add("phase", Self.string(Self.name(of: phase)))
            add("from", object(from))
            add("to", object(to))
        case .controlEvents(let control, let events):
            step("controlEvents")
            add("control", object(control))
            add("events", "[" + Self.names(of: events).map(Self.string).joined(separator: ",") + "]")
        case .actionSent(let control, let action, let target):
            step("actionSent")
            add("control", object(control))
            add("action", Self.string(action))
            add("target", object(target))
        case .layout(let view):
            step("layout")
            add("view", object(view))
        case .display(let view):
            step("display")
            add("view", object(view))
        case .commit:
            step("commit")
        case .framePresented(let commitIdentifier, let time):
            step("framePresented")
            add("commit", String(commitIdentifier))
            add("time", Self.number(time))
        }
        return "{" + fields.map { "\(Self.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// An object as the records name it, or `null`.
    public func object(_ object: AnyObject?) -> String {
        guard let object else { return "null" }
        var text = "{\"id\":\(number(of: object)),\"class\":\(Self.string(String(describing: type(of: object))))"
        let name = (object as? UIView)?.accessibilityIdentifier ?? (object as? UIGestureRecognizer)?.name
        if let name { text += ",\"name\":\(Self.string(name))" }
        return text + "}"
    }

    // MARK: Values

    /// A number rounded to a millionth (times are in seconds, points in
    /// points), written as briefly as it reads back; NaN and infinities,
    /// which JSON lacks, as null.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    static func point(_ point: CGPoint) -> String {
        "[\(number(Double(point.x))),\(number(Double(point.y)))]"
    }

    /// A JSON string literal.
    public static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func name(of phase: UITouch.Phase) -> String {
        switch phase {
        case .began: "began"
        case .moved: "moved"
        case .stationary: "stationary"
        case .ended: "ended"
        case .cancelled: "cancelled"
        }
    }

    static func name(of type: UIEvent.EventType) -> String {
        switch type {
        case .touches: "touches"
        case .motion: "motion"
        case .remoteControl: "remoteControl"
        case .presses: "presses"
        case .scroll: "scroll"
        case .hover: "hover"
        case .transform: "transform"
        }
    }

    private static let controlEventNames: [(UIControl.Event, String)] = [
        (.touchDown, "touchDown"), (.touchDownRepeat, "touchDownRepeat"),
        (.touchDragInside, "touchDragInside"), (.touchDragOutside, "touchDragOutside"),
        (.touchDragEnter, "touchDragEnter"), (.touchDragExit, "touchDragExit"),
        (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"),
        (.touchCancel, "touchCancel"), (.valueChanged, "valueChanged"),
        (.primaryActionTriggered, "primaryActionTriggered"), (.menuActionTriggered, "menuActionTriggered"),
        (.editingDidBegin, "editingDidBegin"), (.editingChanged, "editingChanged"),
        (.editingDidEnd, "editingDidEnd"), (.editingDidEndOnExit, "editingDidEndOnExit"),
    ]

    /// The names of the control events in `events`; bits without a name as their value.
    static func names(of events: UIControl.Event) -> [String] {
        var names: [String] = []
        var rest = events.rawValue
        for (event, name) in controlEventNames where events.contains(event) {
            names.append(name)
            rest &= ~event.rawValue
        }
        if rest != 0 { names.append("0x" + String(rest, radix: 16)) }
        return names
    }
}
