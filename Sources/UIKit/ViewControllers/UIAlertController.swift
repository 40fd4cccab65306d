/// One button of an alert or action sheet: a title, a style, and what to
/// do when it is chosen.
@preconcurrency @MainActor
open class UIAlertAction: NSObject {
    public enum Style: Int, Sendable {
        /// A plain choice, in the tint.
        case `default` = 0
        /// The choice that changes nothing: semibold, and last (an action
        /// sheet shows it apart; an alert of two puts it on the left). At
        /// most one per controller.
        case cancel
        /// A choice that destroys something: in red.
        case destructive
    }

    public let title: String?
    public let style: Style
    /// A disabled action's button is greyed and ignores touches.
    open var isEnabled = true {
        didSet { onChange?() }
    }
    let handler: (@MainActor (UIAlertAction) -> Void)?
    /// Lets the controller's view redraw when ``isEnabled`` changes.
    var onChange: (@MainActor () -> Void)?

    public init(title: String?, style: Style, handler: (@MainActor (UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
        super.init()
    }
}

/// An alert or an action sheet, presented with `present(_:animated:)`.
///
/// Touch behaviour, as in UIKit: an action's button highlights while a
/// finger is on it; lifting the finger on it dismisses the controller and
/// then calls the action's handler. A disabled action does nothing. Tapping
/// the dimmed area outside an action sheet chooses its cancel action, if it
/// has one (as iOS 13 and later do on iPhone); outside an alert, nothing.
/// Lifting the finger on a button dismisses with animation, so the handler
/// runs once the alert has faded out. While an alert comes or goes with
/// animation the application takes no new touches (a finger that lands
/// then is ignored until it lifts), as UIKit's presentations do.
///
/// Presented with animation, an alert's card fades in while shrinking from
/// 1.2 times its size and the screen dims; an action sheet slides up from
/// the bottom edge. Dismissed, an alert fades out and a sheet slides down
/// (`AlertTransition.swift`).
///
/// It looks like iOS 17's in light mode, from ``ControlMetrics``: an alert
/// is a 270-point rounded card in the middle of a dimmed screen, title
/// (semibold 17) and message (13) over the buttons, two actions side by
/// side and more stacked; an action sheet is a card of buttons at the
/// bottom, its cancel button in a card of its own below. Text fields
/// (`addTextField(configurationHandler:)`) wait for text input, which is
/// not here yet.
@preconcurrency @MainActor
open class UIAlertController: UIViewController {
    public enum Style: Int, Sendable {
        case actionSheet = 0
        case alert
    }

    open var message: String?
    public private(set) var preferredStyle: Style = .alert
    open private(set) var actions: [UIAlertAction] = []
    /// The action drawn semibold in an alert, instead of the cancel action.
    open var preferredAction: UIAlertAction?

    /// The card the buttons and texts are on, for tests and layout.
    private(set) var card = UIView(frame: .zero)
    /// An action sheet's card of its cancel button.
    private(set) var cancelCard: UIView?
    /// The dimmed screen behind the cards, which fades in and out.
    let dimmingView = UIView(frame: .zero)
    private var buttons: [AlertActionButton] = []

    public convenience init(title: String?, message: String?, preferredStyle: Style) {
        self.init()
        // UIKit's alerts present with a presentation of their own, never as a sheet.
        modalPresentationStyle = .custom
        self.title = title
        self.message = message
        self.preferredStyle = preferredStyle
    }

    /// Adds an action's button. A second cancel action is refused (UIKit
    /// raises an exception) and reported.
    open func addAction(_ action: UIAlertAction) {
        if action.style == .cancel && actions.contains(where: { $0.style == .cancel }) {
            UIApplication.shared.diagnostics.report(Diagnostic(.presentation, "\(self) already has a cancel action; \(action.title ?? "an action") was not added"))
            return
        }
        actions.append(action)
        action.onChange = { [weak self] in self?.updateButtons() }
        if isViewLoaded { buildContent() }
    }

    open override func loadView() {
        let background = AlertBackgroundView(frame: UIScreen.main.bounds)
        dimmingView.backgroundColor = ControlMetrics.alertDimmingColor
        // Touches outside the cards go to the background view itself.
        dimmingView.isUserInteractionEnabled = false
        background.onTapOutside = { [weak self] in self?.tappedOutside() }
        view = background
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        buildContent()
    }

    /// The actions in the order their buttons show: the cancel action last
    /// (an action sheet's in its own card), or first in an alert of two.
    private var orderedActions: [UIAlertAction] {
        var ordered: [UIAlertAction] = []
        var cancel: UIAlertAction?
        for action in actions {
            if action.style == .cancel { cancel = action } else { ordered.append(action) }
        }
        guard let cancel else { return ordered }
        if preferredStyle == .alert && actions.count == 2 { return [cancel] + ordered }
        return ordered + [cancel]
    }

    private func buildContent() {
        for subview in view.subviews { subview.removeFromSuperview() }
        view.addSubview(dimmingView)
        card = UIView(frame: .zero)
        card.backgroundColor = ControlMetrics.alertBackgroundColor
        card.layer.cornerRadius = ControlMetrics.alertCornerRadius
        card.layer.masksToBounds = true
        view.addSubview(card)
        cancelCard = nil
        buttons.removeAll()
        let isSheet = preferredStyle == .actionSheet
        for action in orderedActions {
            let button = AlertActionButton(action: action, sheet: isSheet,
                                           bold: action.style == .cancel && preferredAction == nil || action === preferredAction)
            button.addAction(UIAction { [weak self] _ in self?.choose(action) }, for: .touchUpInside)
            buttons.append(button)
            if isSheet && action.style == .cancel {
                let own = UIView(frame: .zero)
                own.backgroundColor = ControlMetrics.alertSheetCancelBackgroundColor
                own.layer.cornerRadius = ControlMetrics.alertCornerRadius
                own.layer.masksToBounds = true
                own.addSubview(button)
                view.addSubview(own)
                cancelCard = own
            } else {
                card.addSubview(button)
            }
        }
        layoutContent()
    }

    private func updateButtons() {
        for button in buttons { button.update() }
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        layoutContent()
    }

    /// Places the card (and an action sheet's cancel card), its texts and
    /// its buttons in the view.
    private func layoutContent() {
        let bounds = view.bounds
        dimmingView.frame = bounds
        let isSheet = preferredStyle == .actionSheet
        let width = isSheet ? bounds.width - 2 * ControlMetrics.alertSheetMargin : ControlMetrics.alertWidth
        let padding = ControlMetrics.alertTextPadding
        var y: CGFloat = 0
        for label in card.subviews where label is UILabel { label.removeFromSuperview() }
        var texts: [UILabel] = []
        if let title, !title.isEmpty {
            texts.append(textLabel(title, font: .systemFont(ofSize: isSheet ? 13 : 17, weight: .semibold),
                                   color: isSheet ? .secondaryLabel : .label))
        }
        if let message, !message.isEmpty {
            texts.append(textLabel(message, font: .systemFont(ofSize: 13), color: isSheet ? .secondaryLabel : .label))
        }
        if !texts.isEmpty {
            y = padding
            for label in texts {
                let size = label.sizeThatFits(CGSize(width: width - 2 * padding, height: .greatestFiniteMagnitude))
                label.frame = CGRect(x: padding, y: y, width: width - 2 * padding, height: ceil(size.height))
                card.addSubview(label)
                y = label.frame.maxY + ControlMetrics.alertTextSpacing
            }
            y += padding - ControlMetrics.alertTextSpacing
        }
        let height = isSheet ? ControlMetrics.alertSheetButtonHeight : ControlMetrics.alertButtonHeight
        let inCard = buttons.filter { $0.superview === card }
        let sideBySide = !isSheet && inCard.count == 2
        for (index, button) in inCard.enumerated() {
            if sideBySide {
                button.frame = CGRect(x: CGFloat(index) * width / 2, y: y, width: width / 2, height: height)
            } else {
                button.frame = CGRect(x: 0, y: y + CGFloat(index) * height, width: width, height: height)
            }
            button.drawsTopSeparator = y > 0 || index > 0
            button.drawsLeadingSeparator = sideBySide && index == 1
        }
        let buttonsHeight = sideBySide ? height : CGFloat(inCard.count) * height
        let cardHeight = y + buttonsHeight
        if isSheet {
            let margin = ControlMetrics.alertSheetMargin
            var bottom = bounds.maxY - ControlMetrics.alertSheetBottomMargin
            if let cancelCard, let cancelButton = cancelCard.subviews.first as? AlertActionButton {
                cancelCard.frame = CGRect(x: margin, y: bottom - height, width: width, height: height)
                cancelButton.frame = cancelCard.bounds
                cancelButton.drawsTopSeparator = false
                bottom = cancelCard.frame.minY - ControlMetrics.alertSheetCancelGap
            }
            card.frame = CGRect(x: margin, y: bottom - cardHeight, width: width, height: cardHeight)
        } else {
            card.frame = CGRect(x: bounds.midX - width / 2, y: (bounds.midY - cardHeight / 2).rounded(), width: width, height: cardHeight)
        }
    }

    private func textLabel(_ text: String, font: UIFont, color: UIColor) -> UILabel {
        let label = UILabel(frame: .zero)
        label.text = text
        label.font = font
        label.textColor = color
        label.textAlignment = .center
        label.numberOfLines = 0
        return label
    }

    /// Dismisses the controller, then runs the action's handler.
    private func choose(_ action: UIAlertAction) {
        guard action.isEnabled else { return }
        dismiss(animated: true) {
            action.handler?(action)
        }
    }

    private func tappedOutside() {
        guard preferredStyle == .actionSheet,
              let cancel = actions.first(where: { $0.style == .cancel }), cancel.isEnabled else { return }
        choose(cancel)
    }

    /// The button of `action`, for tests.
    func button(for action: UIAlertAction) -> UIControl? {
        buttons.first { $0.action === action }
    }
}

/// The view behind an alert's cards (over the dimming view): a tap that
/// lands on it (not on a card) is reported.
@MainActor
private final class AlertBackgroundView: UIView {
    var onTapOutside: (@MainActor () -> Void)?

    override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        onTapOutside?()
    }
}

/// An action's button: its title in the style's colour and font, a
/// separator above (and, side by side, to the left), darker while pressed.
@MainActor
private final class AlertActionButton: UIControl {
    let action: UIAlertAction
    private let label = UILabel(frame: .zero)
    private let topSeparator = CALayer.partWithoutActions()
    private let leadingSeparator = CALayer.partWithoutActions()
    var drawsTopSeparator = false {
        didSet { setNeedsLayout() }
    }
    var drawsLeadingSeparator = false {
        didSet { setNeedsLayout() }
    }

    init(action: UIAlertAction, sheet: Bool, bold: Bool) {
        self.action = action
        super.init(frame: .zero)
        label.text = action.title
        label.textAlignment = .center
        label.font = .systemFont(ofSize: sheet ? ControlMetrics.alertSheetButtonFontSize : ControlMetrics.alertButtonFontSize,
                                 weight: bold ? .semibold : .regular)
        addSubview(label)
        for separator in [topSeparator, leadingSeparator] {
            separator.backgroundColor = UIColor.separator.cgColor
            layer.addSublayer(separator)
        }
        update()
    }

    required init?(coder: NSCoder) {
        nil
    }

    func update() {
        isEnabled = action.isEnabled
        label.textColor = !action.isEnabled ? .tertiaryLabel : action.style == .destructive ? .systemRed : tintColor
        backgroundColor = isHighlighted ? ControlMetrics.alertButtonHighlightColor : .clear
    }

    override var isHighlighted: Bool {
        didSet { update() }
    }

    override func tintColorDidChange() {
        super.tintColorDidChange()
        update()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        label.frame = bounds.insetBy(dx: 8, dy: 0)
        let line = 1 / UIScreen.main.scale
        topSeparator.isHidden = !drawsTopSeparator
        topSeparator.frame = CGRect(x: 0, y: 0, width: bounds.width, height: line)
        leadingSeparator.isHidden = !drawsLeadingSeparator
        leadingSeparator.frame = CGRect(x: 0, y: 0, width: line, height: bounds.height)
    }
}
