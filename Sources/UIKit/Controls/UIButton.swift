/// A control that performs an action when tapped: `.touchUpInside`, then
/// `.primaryActionTriggered`.
///
/// A button shows a title and an image chosen by its state: the ones set for
/// the exact current state (`.highlighted`, `.selected`, `.disabled`, or a
/// combination), else the ones set for `.normal`. Its ``titleLabel`` and
/// ``imageView`` show them and change as the state does; a system button
/// also fades them while highlighted
/// (``ControlMetrics/systemButtonHighlightedAlpha``).
///
/// A single tap with one finger on an enabled button belongs to the button:
/// a tap recognizer on one of its ancestors that wants exactly that fails,
/// and the button's action runs instead.
@preconcurrency @MainActor
open class UIButton: UIControl {
    public enum ButtonType: Int, Sendable {
        case custom = 0, system, detailDisclosure, infoLight, infoDark, contactAdd, close
        public static let roundedRect = ButtonType.system
    }

    public private(set) var buttonType = ButtonType.custom
    /// Shows ``currentTitle``.
    public let titleLabel: UILabel?
    /// Shows ``currentImage``.
    public let imageView: UIImageView?
    private var titles: [State: String] = [:]
    private var titleShadowColors: [State: UIColor] = [:]
    private var images: [State: UIImage] = [:]

    /// A custom button.
    public override init(frame: CGRect) {
        titleLabel = UILabel(frame: CGRect(origin: .zero, size: frame.size))
        imageView = UIImageView(frame: CGRect(origin: .zero, size: frame.size))
        super.init(frame: frame)
        addContentViews()
    }

    public required init?(coder: NSCoder) {
        titleLabel = UILabel(frame: .zero)
        imageView = UIImageView(frame: .zero)
        super.init(coder: coder)
        addContentViews()
    }

    private func addContentViews() {
        if let imageView { addSubview(imageView) }
        if let titleLabel { addSubview(titleLabel) }
    }

    /// A button of `buttonType`, with a zero frame.
    public convenience init(type buttonType: ButtonType) {
        self.init(frame: .zero)
        self.buttonType = buttonType
    }

    /// A button of `buttonType` that runs `primaryAction` when tapped, with
    /// the action's title and image.
    public convenience init(type buttonType: ButtonType = .system, primaryAction: UIAction?) {
        self.init(type: buttonType)
        if let primaryAction { adoptPrimaryAction(primaryAction) }
    }

    override func adoptPrimaryAction(_ action: UIAction) {
        super.adoptPrimaryAction(action)
        setTitle(action.title, for: .normal)
        setImage(action.image, for: .normal)
    }

    override var triggersPrimaryActionOnTouchUpInside: Bool { true }

    open override var frame: CGRect {
        didSet { layOutContent() }
    }

    open override var bounds: CGRect {
        didSet { layOutContent() }
    }

    /// There is no layout pass in this build: the title and image fill the button.
    private func layOutContent() {
        titleLabel?.frame = bounds
        imageView?.frame = bounds
    }

    // MARK: Title and image by state

    open func setTitle(_ title: String?, for state: State) {
        titles[state] = title
        updateContent()
    }

    /// The title set for `state`, or else the one for `.normal`.
    open func title(for state: State) -> String? {
        titles[state] ?? titles[.normal]
    }

    /// Sets the colour of the title's shadow for `state`.
    open func setTitleShadowColor(_ color: UIColor?, for state: State) {
        titleShadowColors[state] = color
        updateContent()
    }

    /// The title shadow colour set for `state`, or else the one for `.normal`.
    open func titleShadowColor(for state: State) -> UIColor? {
        titleShadowColors[state] ?? titleShadowColors[.normal]
    }

    open func setImage(_ image: UIImage?, for state: State) {
        images[state] = image
        updateContent()
    }

    /// The image set for `state`, or else the one for `.normal`.
    open func image(for state: State) -> UIImage? {
        images[state] ?? images[.normal]
    }

    /// The title for the current state.
    open var currentTitle: String? { title(for: state) }
    /// The image for the current state.
    open var currentImage: UIImage? { image(for: state) }
    /// The title's shadow colour for the current state.
    open var currentTitleShadowColor: UIColor? { titleShadowColor(for: state) }

    open override var isHighlighted: Bool {
        didSet { updateContent() }
    }

    open override var isSelected: Bool {
        didSet { updateContent() }
    }

    open override var isEnabled: Bool {
        didSet { updateContent() }
    }

    private func updateContent() {
        titleLabel?.text = currentTitle
        titleLabel?.shadowColor = currentTitleShadowColor
        imageView?.image = currentImage
        let alpha = buttonType == .system && isHighlighted ? ControlMetrics.systemButtonHighlightedAlpha : 1
        titleLabel?.alpha = alpha
        imageView?.alpha = alpha
    }

    // MARK: Gestures

    /// An ancestor's recognizer of a single one-finger tap is the button's to win.
    override func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool {
        isEnabled && recognizer.isSingleOneFingerTap
    }
}

extension UIGestureRecognizer {
    /// A tap recognizer for one tap of one finger: a button's or a switch's own gesture.
    var isSingleOneFingerTap: Bool {
        guard let tap = self as? UITapGestureRecognizer else { return false }
        return tap.numberOfTapsRequired == 1 && tap.numberOfTouchesRequired == 1
    }
}
