/// What a `UIAction` runs, with the action itself (whose ``UIAction/sender``
/// is the control that sent it).
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// An action a control performs for its events: a handler with a title, an
/// image and an identifier, registered with `UIControl.addAction(_:for:)`.
///
/// A control keeps one action per identifier: adding an action whose
/// identifier is already registered replaces the old one, as in UIKit.
@preconcurrency @MainActor
open class UIAction {
    /// Names an action, so that it can be replaced or removed by name.
    public struct Identifier: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    open var title: String
    open var image: UIImage?
    open var discoverabilityTitle: String?
    public let identifier: Identifier
    /// The object performing the action (the control whose event triggered
    /// it), while the handler runs; nil otherwise.
    public private(set) var sender: Any?
    private let handler: UIActionHandler

    /// An action; without an identifier it gets a unique one.
    public init(
        title: String = "", image: UIImage? = nil, identifier: Identifier? = nil,
        discoverabilityTitle: String? = nil, handler: @escaping UIActionHandler
    ) {
        self.title = title
        self.image = image
        self.identifier = identifier ?? Identifier(UUID().uuidString)
        self.discoverabilityTitle = discoverabilityTitle
        self.handler = handler
    }

    /// Runs the handler with `sender` as the action's sender.
    func perform(sender: Any?) {
        let previous = self.sender
        self.sender = sender
        handler(self)
        self.sender = previous
    }
}
