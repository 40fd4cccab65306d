/// The name of an action that a responder may perform: the role of an
/// Objective-C selector.
///
/// There is no Objective-C runtime on Linux, so a responder cannot be asked
/// whether it "responds to" a method by name. Instead a responder declares
/// the named actions it performs by overriding
/// `UIResponder.handler(forAction:)`, returning the method that performs
/// each one:
///
/// ```swift
/// override func handler(forAction action: Selector) -> ((Any?) -> Void)? {
///     action == .copy ? copy : super.handler(forAction: action)
/// }
/// func copy(_ sender: Any?) { … }
/// ```
///
/// Everything UIKit builds on selectors then works as it does there:
/// `canPerformAction(_:withSender:)`, `target(forAction:withSender:)`,
/// `UIApplication.sendAction(_:to:from:for:)` with a nil target walking the
/// responder chain, and a control's `addTarget(nil, action: .copy, for:)`.
/// Write `Selector("name:")` where Swift on Apple platforms writes
/// `#selector(name(_:))`.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The action's name, spelled as Objective-C would (`"copy:"`).
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral name: String) {
        self.name = name
    }

    public var description: String { name }
}

/// The standard editing actions of `UIResponderStandardEditActions`, which
/// menus send with a nil target to whichever responder can perform them.
extension Selector {
    public static let cut = Selector("cut:")
    public static let copy = Selector("copy:")
    public static let paste = Selector("paste:")
    public static let delete = Selector("delete:")
    public static let select = Selector("select:")
    public static let selectAll = Selector("selectAll:")
    public static let toggleBoldface = Selector("toggleBoldface:")
    public static let toggleItalics = Selector("toggleItalics:")
    public static let toggleUnderline = Selector("toggleUnderline:")
}
