/// A control that performs an action when tapped: `.touchUpInside`, then
/// `.primaryActionTriggered`.
///
/// A button shows a title and an image, over a background image, chosen by
/// its state. For each of title (plain or attributed, the attributed one
/// first), title colour, title shadow colour, image and background image,
/// the value set for
/// the exact current state (`.highlighted`, `.selected`, `.disabled`, or a
/// combination) is used, else the one set for `.normal`, else the button
/// type's default (Apple: "if the normal value is not set, then the
/// property defaults to a system value"). Its ``titleLabel`` and
/// ``imageView`` are subviews that show them, laid out by
/// ``layoutSubviews()``: image then title, side by side, centred in the
/// bounds less ``contentEdgeInsets`` (and moved by ``imageEdgeInsets`` and
/// ``titleEdgeInsets``), as ``UIControl/contentHorizontalAlignment`` and
/// ``UIControl/contentVerticalAlignment`` say.
///
/// The two types look different:
/// - `.system` (and the other system-drawn types): the title is the
///   ``UIView/tintColor``, and grey when disabled; the image is drawn as a
///   template, in the title's colour; while highlighted the title and image
///   fade to ``ControlMetrics/systemButtonHighlightedAlpha``.
/// - `.custom`: the title is white (`currentTitleColor`'s documented
///   default) whatever the tint, and the image keeps its own colours;
///   highlighted, an image is darkened (``adjustsImageWhenHighlighted``)
///   and, disabled, faded (``adjustsImageWhenDisabled``).
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

    public private(set) var buttonType = ButtonType.custom {
        didSet { updateContent() }
    }
    /// Shows ``currentTitle`` in ``currentTitleColor``; its font is the
    /// button's (the system font at ``ControlMetrics/buttonTitleFontSize`` by default).
    public let titleLabel: UILabel?
    /// Shows ``currentImage``.
    public let imageView: UIImageView?
    private var titles: [State: String] = [:]
    private var titleColors: [State: UIColor] = [:]
    private var titleShadowColors: [State: UIColor] = [:]
    private var images: [State: UIImage] = [:]
    private var attributedTitles: [State: NSAttributedString] = [:]
    private var backgroundImages: [State: UIImage] = [:]
    /// Shows ``currentBackgroundImage``, stretched over the bounds, behind
    /// the image and the title.
    private let backgroundImageView = UIImageView(frame: .zero)

    /// Space around the title and image, inside the bounds; also added to
    /// their size by ``sizeThatFits(_:)`` and ``intrinsicContentSize``.
    open var contentEdgeInsets = UIEdgeInsets.zero {
        didSet { setNeedsLayout() }
    }
    /// Moves the title's rectangle inward by these distances after the title
    /// and image are placed (negative values move it outward).
    open var titleEdgeInsets = UIEdgeInsets.zero {
        didSet { setNeedsLayout() }
    }
    /// Moves the image's rectangle as ``titleEdgeInsets`` moves the title's.
    open var imageEdgeInsets = UIEdgeInsets.zero {
        didSet { setNeedsLayout() }
    }
    /// A custom button darkens its image while highlighted.
    open var adjustsImageWhenHighlighted = true {
        didSet { updateContent() }
    }
    /// A custom button fades its image while disabled.
    open var adjustsImageWhenDisabled = true {
        didSet { updateContent() }
    }

    /// A custom button.
    public override init(frame: CGRect) {
        titleLabel = UILabel(frame: .zero)
        imageView = UIImageView(frame: .zero)
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
        addSubview(backgroundImageView)
        if let imageView { addSubview(imageView) }
        if let titleLabel {
            titleLabel.font = .systemFont(ofSize: ControlMetrics.buttonTitleFontSize)
            titleLabel.lineBreakMode = .byTruncatingMiddle
            addSubview(titleLabel)
        }
        updateContent()
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

    /// Whether the system draws this button: every type but `.custom`.
    private var isSystemDrawn: Bool { buttonType != .custom }

    // MARK: Title and image by state

    open func setTitle(_ title: String?, for state: State) {
        titles[state] = title
        updateContent()
    }

    /// The title set for `state`, or else the one for `.normal`.
    open func title(for state: State) -> String? {
        titles[state] ?? titles[.normal]
    }

    /// Sets the colour of the title for `state`; nil goes back to the
    /// `.normal` colour, or the type's default.
    open func setTitleColor(_ color: UIColor?, for state: State) {
        titleColors[state] = color
        updateContent()
    }

    /// The title colour for `state`: the one set for it, or else the one set
    /// for `.normal`, or else the type's: the tint (grey when disabled) for
    /// a system button, white for a custom one.
    open func titleColor(for state: State) -> UIColor? {
        if let color = titleColors[state] ?? titleColors[.normal] { return color }
        guard isSystemDrawn else { return .white }
        return state.contains(.disabled) ? ControlMetrics.systemButtonDisabledTitleColor : tintColor
    }

    /// Sets the colour of the title's shadow for `state`.
    open func setTitleShadowColor(_ color: UIColor?, for state: State) {
        titleShadowColors[state] = color
        updateContent()
    }

    /// The title shadow colour set for `state`, or else the one for
    /// `.normal`; nil while the button has no title for `state`, as on iOS,
    /// where a shadow colour belongs to a title (a peer's tests, run on
    /// Apple's simulator, read nil back from a button without one).
    open func titleShadowColor(for state: State) -> UIColor? {
        guard title(for: state) != nil || attributedTitle(for: state) != nil else { return nil }
        return titleShadowColors[state] ?? titleShadowColors[.normal]
    }

    open func setImage(_ image: UIImage?, for state: State) {
        images[state] = image
        updateContent()
    }

    /// The image set for `state`, or else the one for `.normal`.
    open func image(for state: State) -> UIImage? {
        images[state] ?? images[.normal]
    }

    /// Sets a title with attributes of its own for `state`; where there is
    /// one (for the state, or else for `.normal`) it is shown instead of the
    /// plain title. Runs without a colour take the title colour.
    open func setAttributedTitle(_ title: NSAttributedString?, for state: State) {
        attributedTitles[state] = title
        updateContent()
    }

    /// The attributed title set for `state`, or else the one for `.normal`.
    open func attributedTitle(for state: State) -> NSAttributedString? {
        attributedTitles[state] ?? attributedTitles[.normal]
    }

    /// Sets the image drawn behind the title and image, stretched over the
    /// bounds, for `state`.
    open func setBackgroundImage(_ image: UIImage?, for state: State) {
        backgroundImages[state] = image
        updateContent()
    }

    /// The background image set for `state`, or else the one for `.normal`.
    open func backgroundImage(for state: State) -> UIImage? {
        backgroundImages[state] ?? backgroundImages[.normal]
    }

    /// The title for the current state.
    open var currentTitle: String? { title(for: state) }
    /// The attributed title for the current state.
    open var currentAttributedTitle: NSAttributedString? { attributedTitle(for: state) }
    /// The background image for the current state.
    open var currentBackgroundImage: UIImage? { backgroundImage(for: state) }
    /// The title colour for the current state; never nil.
    open var currentTitleColor: UIColor { titleColor(for: state) ?? .white }
    /// The image for the current state.
    open var currentImage: UIImage? { image(for: state) }
    /// The title's shadow colour for the current state.
    open var currentTitleShadowColor: UIColor? { titleShadowColor(for: state) }

    open override var isHighlighted: Bool {
        didSet { if isHighlighted != oldValue { updateContent() } }
    }

    open override var isSelected: Bool {
        didSet { if isSelected != oldValue { updateContent() } }
    }

    open override var isEnabled: Bool {
        didSet { if isEnabled != oldValue { updateContent() } }
    }

    open override func tintColorDidChange() {
        super.tintColorDidChange()
        updateContent()
    }

    /// Shows the current state's title, colours and image.
    private func updateContent() {
        let state = self.state
        if let titleLabel {
            if let attributed = attributedTitle(for: state) {
                titleLabel.attributedText = attributed
            } else {
                titleLabel.text = title(for: state)
            }
            titleLabel.textColor = currentTitleColor
            titleLabel.shadowColor = titleShadowColor(for: state)
            titleLabel.alpha = isSystemDrawn && isHighlighted ? ControlMetrics.systemButtonHighlightedAlpha : 1
        }
        backgroundImageView.image = backgroundImage(for: state)
        if let imageView {
            imageView.image = displayedImage(for: state)
            imageView.alpha = isSystemDrawn && isHighlighted ? ControlMetrics.systemButtonHighlightedAlpha : 1
        }
        setNeedsLayout()
    }

    /// The current image as drawn: a template in the title's colour for a
    /// system button (unless it is ``UIImage/RenderingMode/alwaysOriginal``);
    /// for a custom one, in the tint if it is
    /// ``UIImage/RenderingMode/alwaysTemplate``, then darkened or faded by
    /// state.
    private func displayedImage(for state: State) -> UIImage? {
        guard var image = image(for: state) else { return nil }
        if isSystemDrawn { return image.renderingMode == .alwaysOriginal ? image : image.withTintColor(currentTitleColor) }
        if image.renderingMode == .alwaysTemplate { image = image.withTintColor(tintColor) }
        if isHighlighted && adjustsImageWhenHighlighted { return image.overlaid(with: ControlMetrics.buttonHighlightedImageShade) }
        if !isEnabled && adjustsImageWhenDisabled { return image.faded(to: ControlMetrics.buttonDisabledImageAlpha) }
        return image
    }

    // MARK: Layout

    /// The sizes the image and the title take, the title within `width`.
    private func contentSizes(within width: CGFloat) -> (image: CGSize, title: CGSize) {
        let image = imageView?.image?.size ?? .zero
        guard let titleLabel, let text = titleLabel.text, !text.isEmpty else { return (image, .zero) }
        let title = titleLabel.sizeThatFits(CGSize(width: max(0, width - image.width), height: .greatestFiniteMagnitude))
        return (image, CGSize(width: min(title.width, max(0, width - image.width)), height: title.height))
    }

    /// The title and image take the size they need, image first, in the
    /// bounds less ``contentEdgeInsets``, placed by the content alignments
    /// and moved by their own insets, on whole pixels of the screen.
    open override func layoutSubviews() {
        super.layoutSubviews()
        let content = bounds.inset(by: contentEdgeInsets)
        let (imageSize, titleSize) = contentSizes(within: content.width)
        let total = imageSize.width + titleSize.width
        let left: CGFloat
        switch contentHorizontalAlignment {
        case .left, .leading: left = content.minX
        case .right, .trailing: left = content.maxX - total
        case .fill: left = content.minX
        case .center: left = content.minX + (content.width - total) / 2
        }
        func top(_ height: CGFloat, in area: CGRect) -> CGFloat {
            switch contentVerticalAlignment {
            case .top: area.minY
            case .bottom: area.maxY - height
            case .center, .fill: area.minY + (area.height - height) / 2
            }
        }
        var titleWidth = titleSize.width
        if contentHorizontalAlignment == .fill { titleWidth = max(0, content.width - imageSize.width) }
        let imageFrame = CGRect(x: left, y: top(imageSize.height, in: content), width: imageSize.width, height: imageSize.height)
        let titleArea = content.inset(by: titlePadding)
        let titleFrame = CGRect(x: left + imageSize.width, y: top(titleSize.height, in: titleArea), width: titleWidth, height: titleSize.height)
        backgroundImageView.frame = bounds
        imageView?.frame = Self.onPixels(imageFrame.inset(by: imageEdgeInsets))
        titleLabel?.frame = Self.onPixels(titleFrame.inset(by: titleEdgeInsets))
    }

    /// `rect` with its origin on the screen's pixel grid, so that text and
    /// images are not resampled between pixels.
    private static func onPixels(_ rect: CGRect) -> CGRect {
        let scale = UIScreen.main.scale
        guard rect.origin.x.isFinite, rect.origin.y.isFinite else { return rect }
        return CGRect(x: (rect.minX * scale).rounded() / scale, y: (rect.minY * scale).rounded() / scale,
                      width: rect.width, height: rect.height)
    }

    /// Space kept above and below the title inside the content: without
    /// content insets, ``ControlMetrics/buttonVerticalPadding``, as UIKit
    /// keeps it (a `.top` or `.bottom` aligned title stays that far from
    /// the edge of a button sized to fit).
    private var titlePadding: UIEdgeInsets {
        guard contentEdgeInsets == .zero else { return .zero }
        let padding = ControlMetrics.buttonVerticalPadding
        return UIEdgeInsets(top: padding, left: 0, bottom: padding, right: 0)
    }

    /// The title and image side by side plus ``contentEdgeInsets``, and at
    /// least the background image's size. The title keeps its padding
    /// above and below (`titlePadding`) and the image does not: a button
    /// with an 80-point image and a title is 80 points high, as on iOS. An
    /// empty button fits ``ControlMetrics/emptyButtonSize``.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let (image, title) = contentSizes(within: .greatestFiniteMagnitude)
        let background = backgroundImage(for: state)?.size ?? .zero
        if image == .zero, title == .zero, background == .zero, contentEdgeInsets == .zero { return ControlMetrics.emptyButtonSize }
        let titleHeight = title.height > 0 ? title.height + titlePadding.top + titlePadding.bottom : 0
        let height = max(image.height, titleHeight) + contentEdgeInsets.top + contentEdgeInsets.bottom
        return CGSize(width: max(image.width + title.width + contentEdgeInsets.left + contentEdgeInsets.right, background.width),
                      height: max(height, background.height))
    }

    open override var intrinsicContentSize: CGSize {
        sizeThatFits(CGSize(width: CGFloat.greatestFiniteMagnitude, height: .greatestFiniteMagnitude))
    }

    // MARK: Gestures

    /// An ancestor's recognizer of a single one-finger tap is the button's to win.
    override func claimsGesture(of recognizer: UIGestureRecognizer) -> Bool {
        isEnabled && recognizer.isSingleOneFingerTap
    }
}

extension UIImage {
    /// The image with `color` laid over its own shape.
    fileprivate func overlaid(with color: UIColor) -> UIImage {
        redrawn { context, rect, image in
            context.draw(image, in: rect)
            context.setBlendMode(.sourceAtop)
            context.setFillColor(color.cgColor)
            context.fill(rect)
        }
    }

    /// The image at `alpha` of its opacity.
    fileprivate func faded(to alpha: CGFloat) -> UIImage {
        redrawn { context, rect, image in
            context.setAlpha(alpha)
            context.draw(image, in: rect)
        }
    }
}

extension UIGestureRecognizer {
    /// A tap recognizer for one tap of one finger: a button's or a switch's own gesture.
    var isSingleOneFingerTap: Bool {
        guard let tap = self as? UITapGestureRecognizer else { return false }
        return tap.numberOfTapsRequired == 1 && tap.numberOfTouchesRequired == 1
    }
}
