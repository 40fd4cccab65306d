import Foundation

/// One row of a table view: a content view holding the standard labels and
/// image (or the app's own subviews), an accessory on the trailing side,
/// backgrounds for the normal and selected states, and a separator below.
///
/// The table view owns the cell's frame, its highlight and its selection;
/// the cell draws them. Cells are reused: when one scrolls off, the table
/// keeps it for ``reuseIdentifier`` and calls ``prepareForReuse()`` before
/// handing it out again.
@preconcurrency @MainActor
open class UITableViewCell: UIView {
    /// The arrangements of the standard labels.
    public enum CellStyle: Int, Sendable {
        /// An image and one left-aligned label (``textLabel``); no detail label.
        case `default`
        /// A label on the left and a grey one right-aligned on the same line.
        case value1
        /// A small blue label right-aligned in a column, then a label beside it.
        case value2
        /// A label with a smaller grey one below it.
        case subtitle
    }

    /// The standard accessories shown on the cell's trailing side.
    public enum AccessoryType: Int, Sendable {
        case none
        /// A chevron: the row leads somewhere.
        case disclosureIndicator
        /// An info button and a chevron.
        case detailDisclosureButton
        /// A checkmark.
        case checkmark
        /// An info button.
        case detailButton
    }

    /// How a highlighted or selected cell looks.
    public enum SelectionStyle: Int, Sendable {
        /// No change.
        case none
        /// Once blue; grey since iOS 7, as here.
        case blue
        /// A grey background.
        case gray
        /// The default: a grey background.
        case `default`
    }

    /// The control a row shows while its table is editing.
    public enum EditingStyle: Int, Sendable {
        case none
        case delete
        case insert
    }

    /// The cell's arrangement of standard labels.
    public let style: CellStyle
    /// The identifier the table view keeps the cell under for reuse.
    public let reuseIdentifier: String?

    /// Makes a cell with `style`'s standard labels.
    public init(style: CellStyle, reuseIdentifier: String?) {
        self.style = style
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: CGRect(x: 0, y: 0, width: 320, height: TableViewMetrics.defaultRowHeight))
        setUpCell()
    }

    /// A `.default` cell with no reuse identifier.
    public override convenience init(frame: CGRect) {
        self.init(style: .default, reuseIdentifier: nil)
        self.frame = frame
    }

    public required init?(coder: NSCoder) {
        style = .default
        reuseIdentifier = nil
        super.init(coder: coder)
        setUpCell()
    }

    /// How a table view makes a cell of a registered class: through the
    /// class's own `init(style:reuseIdentifier:)`, so a subclass that
    /// overrides it is set up as it expects.
    public required convenience init(registeredWithReuseIdentifier identifier: String) {
        self.init(style: .default, reuseIdentifier: identifier)
    }

    private func setUpCell() {
        backgroundColor = .systemBackground
        contentView.frame = bounds
        addSubview(contentView)
        separator.backgroundColor = .separator
        addSubview(separator)
    }

    // MARK: Content

    /// The view that holds the cell's content: add your subviews here, not
    /// to the cell, so that they move aside for the accessory and editing controls.
    public let contentView = UIView()

    /// The main label, made the first time it is asked for.
    open var textLabel: UILabel? {
        if let storedTextLabel { return storedTextLabel }
        let label = UILabel()
        label.font = .systemFont(ofSize: 17)
        label.textColor = .label
        label.highlightedTextColor = nil
        if style == .value2 {
            label.font = .systemFont(ofSize: 12, weight: .semibold)
            label.textColor = .tintColor
            label.textAlignment = .right
        }
        storedTextLabel = label
        contentView.addSubview(label)
        setNeedsLayout()
        return label
    }

    /// The secondary label; nil for the `.default` style.
    open var detailTextLabel: UILabel? {
        guard style != .default else { return nil }
        if let storedDetailTextLabel { return storedDetailTextLabel }
        let label = UILabel()
        switch style {
        case .subtitle:
            label.font = .systemFont(ofSize: 15)
            label.textColor = .secondaryLabel
        case .value1:
            label.font = .systemFont(ofSize: 17)
            label.textColor = .secondaryLabel
            label.textAlignment = .right
        default:
            label.font = .systemFont(ofSize: 15)
            label.textColor = .label
        }
        storedDetailTextLabel = label
        contentView.addSubview(label)
        setNeedsLayout()
        return label
    }

    /// The image on the leading side, made the first time it is asked for.
    open var imageView: UIImageView? {
        if let storedImageView { return storedImageView }
        let imageView = UIImageView()
        storedImageView = imageView
        contentView.addSubview(imageView)
        setNeedsLayout()
        return imageView
    }

    private var storedTextLabel: UILabel?
    private var storedDetailTextLabel: UILabel?
    private var storedImageView: UIImageView?

    // MARK: Accessory

    /// A standard accessory on the trailing side. Default `.none`.
    open var accessoryType = AccessoryType.none {
        // The same type again (a reused cell configured as before) keeps the
        // accessory view and its drawing.
        didSet { if accessoryType != oldValue { updateAccessory() } }
    }

    /// A view of your own on the trailing side, shown instead of ``accessoryType``.
    open var accessoryView: UIView? {
        didSet {
            guard accessoryView !== oldValue else { return }
            oldValue?.removeFromSuperview()
            updateAccessory()
        }
    }

    /// The accessory on screen: ``accessoryView`` or the standard one.
    private(set) var shownAccessory: UIView?

    private func updateAccessory() {
        if let shown = shownAccessory, shown !== accessoryView { shown.removeFromSuperview() }
        if let accessoryView {
            shownAccessory = accessoryView
        } else if accessoryType != .none {
            shownAccessory = StandardAccessoryView(type: accessoryType)
        } else {
            shownAccessory = nil
        }
        if let shownAccessory, shownAccessory.superview !== self { addSubview(shownAccessory) }
        setNeedsLayout()
    }

    // MARK: Backgrounds, separator

    /// How the cell looks highlighted or selected. Default `.default` (grey).
    open var selectionStyle = SelectionStyle.default {
        didSet { updateSelectionBackground() }
    }

    /// A view behind the content. Default nil (the cell's background colour shows).
    open var backgroundView: UIView? {
        didSet {
            oldValue?.removeFromSuperview()
            if let backgroundView { insertSubview(backgroundView, at: 0) }
            setNeedsLayout()
        }
    }

    /// The view behind the content while the cell is highlighted or
    /// selected. The default is a plain view of UIKit's selection grey
    /// (`systemGray4`), made the first time it is needed.
    open var selectedBackgroundView: UIView? {
        get {
            if storedSelectedBackgroundView == nil && !selectedBackgroundViewWasSet {
                let view = UIView()
                view.backgroundColor = .systemGray4
                storedSelectedBackgroundView = view
            }
            return storedSelectedBackgroundView
        }
        set {
            storedSelectedBackgroundView?.removeFromSuperview()
            storedSelectedBackgroundView = newValue
            selectedBackgroundViewWasSet = true
            updateSelectionBackground()
        }
    }
    private var storedSelectedBackgroundView: UIView?
    private var selectedBackgroundViewWasSet = false

    /// The separator's distance from the cell's sides (only left and right
    /// count; negative values count as 0). Until it is set, the table's
    /// ``UITableView/separatorInset``; a value set here takes precedence
    /// over the table's (Apple's documentation of both properties).
    open var separatorInset: UIEdgeInsets {
        get { ownSeparatorInset ?? tableSeparatorInset }
        set {
            ownSeparatorInset = newValue
            setNeedsLayout()
        }
    }
    private var ownSeparatorInset: UIEdgeInsets?

    /// The table's default separator inset, which the table passes to the
    /// cells it shows.
    var tableSeparatorInset = UIEdgeInsets(top: 0, left: TableViewMetrics.contentMargin, bottom: 0, right: 0) {
        didSet { if ownSeparatorInset == nil && tableSeparatorInset != oldValue { setNeedsLayout() } }
    }

    /// The hairline below the cell; the table view hides it where its style
    /// draws none (after the last row of a section in the grouped styles).
    let separator = UIView()

    // MARK: Highlight and selection

    /// Whether the cell shows the highlight of a touch. The table view sets it.
    open var isHighlighted: Bool {
        get { storedHighlighted }
        set { setHighlighted(newValue, animated: false) }
    }

    /// Whether the cell shows as selected. The table view sets it.
    open var isSelected: Bool {
        get { storedSelected }
        set { setSelected(newValue, animated: false) }
    }

    private var storedHighlighted = false
    private var storedSelected = false

    /// Shows or hides the highlight: the selected background, and the
    /// highlighted state of the labels and images in the content view.
    /// Without Motion there is no animation; `animated` is accepted for
    /// source compatibility.
    open func setHighlighted(_ highlighted: Bool, animated: Bool) {
        guard highlighted != storedHighlighted else { return }
        storedHighlighted = highlighted
        updateSelectionBackground()
    }

    /// Shows or hides the selection, as ``setHighlighted(_:animated:)``.
    open func setSelected(_ selected: Bool, animated: Bool) {
        guard selected != storedSelected else { return }
        storedSelected = selected
        updateSelectionBackground()
    }

    private func updateSelectionBackground() {
        let shows = (storedHighlighted || storedSelected) && selectionStyle != .none
        if shows, let background = selectedBackgroundView {
            if background.superview !== self {
                insertSubview(background, at: backgroundView == nil ? 0 : 1)
                background.frame = bounds
            }
        } else {
            storedSelectedBackgroundView?.removeFromSuperview()
        }
        propagateHighlight(shows, in: contentView)
    }

    /// UIKit shows a highlighted or selected cell's labels and images in
    /// their highlighted state (`highlightedTextColor`, `highlightedImage`).
    private func propagateHighlight(_ highlighted: Bool, in view: UIView) {
        for subview in view.subviews {
            if let label = subview as? UILabel { label.isHighlighted = highlighted }
            if let imageView = subview as? UIImageView { imageView.isHighlighted = highlighted }
            propagateHighlight(highlighted, in: subview)
        }
    }

    // MARK: Editing

    /// Whether the cell is in editing mode (its table's `isEditing`): it
    /// shows its editing control on the leading side (its content view
    /// standing in to make room) and its reorder control on the trailing
    /// side instead of the accessory.
    open var isEditing = false {
        didSet { updateEditingControls() }
    }

    /// Sets ``isEditing``; without Motion the change is not animated.
    open func setEditing(_ editing: Bool, animated: Bool) {
        isEditing = editing
    }

    /// Whether the cell shows a reorder control while editing. The table
    /// view sets it from its data source's `canMoveRowAt` for each row.
    open var showsReorderControl = false {
        didSet { updateEditingControls() }
    }

    /// The editing control the cell shows while editing: the table view sets
    /// it from its delegate's `editingStyleForRowAt` (`.none` for a row its
    /// data source cannot edit).
    open internal(set) var editingStyle = EditingStyle.none {
        didSet { updateEditingControls() }
    }

    /// Whether the content view stands in from the leading edge for the
    /// editing control while editing. Default true; the table view sets it
    /// from its delegate's `shouldIndentWhileEditingRowAt`.
    open var shouldIndentWhileEditing = true {
        didSet { setNeedsLayout() }
    }

    /// The delete or insert button and the reorder grip on screen while editing.
    private var editControl: TableEditControl?
    private var reorderControl: TableReorderControl?

    /// The reorder control while it shows, for the table view's hit test.
    var shownReorderControl: UIView? { reorderControl }

    private func updateEditingControls() {
        let editStyle = isEditing ? editingStyle : .none
        if editControl?.style != editStyle {
            editControl?.removeFromSuperview()
            editControl = nil
            if editStyle != .none {
                let control = TableEditControl(style: editStyle)
                control.addAction(UIAction { [weak self] _ in self?.editControlTapped() }, for: .touchUpInside)
                addSubview(control)
                editControl = control
            }
        }
        let showsReorder = isEditing && showsReorderControl
        if showsReorder != (reorderControl != nil) {
            reorderControl?.removeFromSuperview()
            reorderControl = nil
            if showsReorder {
                let control = TableReorderControl()
                addSubview(control)
                reorderControl = control
            }
        }
        setNeedsLayout()
    }

    /// The delete or insert button was tapped: the table view decides.
    private func editControlTapped() {
        var ancestor = superview
        while let view = ancestor, !(view is UITableView) { ancestor = view.superview }
        (ancestor as? UITableView)?.editControlTapped(in: self)
    }

    // MARK: Reuse

    /// Called just before the table view hands the cell out again. The
    /// default clears the highlight and selection and ends editing; call
    /// super when you override it.
    open func prepareForReuse() {
        setHighlighted(false, animated: false)
        setSelected(false, animated: false)
        swipeOffset = 0
    }

    // MARK: Layout

    /// The height a self-sizing row gets (``UITableView/automaticDimension``)
    /// when the content view has no constraints: the standard labels'
    /// heights within `size.width`, never less than the standard row height.
    /// Override it in a cell that places views of its own without constraints.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let width = max(0, size.width - 2 * TableViewMetrics.contentMargin)
        var height: CGFloat = 0
        let unbounded = CGSize(width: width, height: .greatestFiniteMagnitude)
        if let label = storedTextLabel { height += label.sizeThatFits(unbounded).height }
        if style == .subtitle, let detail = storedDetailTextLabel { height += detail.sizeThatFits(unbounded).height }
        return CGSize(width: size.width, height: max(TableViewMetrics.defaultRowHeight, (height + 22).rounded(.up)))
    }

    /// The size of a self-sizing row: the table view asks with its row
    /// width, a required horizontal fit and the lowest vertical one, as
    /// UIKit's does. A cell whose content view is laid out with constraints
    /// measures the content view with Auto Layout, at the width it has
    /// beside the accessory, and adds the separator below it; a cell without
    /// constraints answers ``sizeThatFits(_:)`` (the two ways UIKit has sized
    /// cells since iOS 8, WWDC 2014 session 226).
    open override func systemLayoutSizeFitting(_ targetSize: CGSize, withHorizontalFittingPriority horizontalFittingPriority: UILayoutPriority,
                                               verticalFittingPriority: UILayoutPriority) -> CGSize {
        guard contentView.placesSubviewsWithConstraints else { return sizeThatFits(targetSize) }
        let contentTarget = CGSize(width: contentWidth(inCellWidth: targetSize.width), height: targetSize.height)
        let content = contentView.systemLayoutSizeFitting(contentTarget, withHorizontalFittingPriority: horizontalFittingPriority,
                                                          verticalFittingPriority: verticalFittingPriority)
        return CGSize(width: targetSize.width, height: content.height + separatorHeight)
    }

    /// The height the separator takes at the bottom of the cell: one pixel
    /// while it shows. The content view ends above it, as in UIKit (a
    /// self-sized row of 54 points of content is 54⅓ points tall at 3×).
    private var separatorHeight: CGFloat {
        separator.isHidden ? 0 : 1 / max(1, UIScreen.main.scale)
    }

    /// Where the content view lies across a cell `width` wide: inside the
    /// table's safe area (``UITableView/insetsContentViewsToSafeArea``),
    /// beside the accessory, or while editing what the editing control (when
    /// the content indents for it) and the reorder control leave.
    private func contentSpan(inCellWidth width: CGFloat) -> (x: CGFloat, width: CGFloat) {
        // Laid out left to right, then mirrored for right to left.
        let safe = tableContentSafeAreaInsets
        var leading = isRightToLeft ? safe.right : safe.left, trailing = isRightToLeft ? safe.left : safe.right
        if isEditing {
            if editControl != nil && shouldIndentWhileEditing { leading += TableViewMetrics.editControlWidth }
            if reorderControl != nil { trailing += TableViewMetrics.reorderControlWidth }
        } else if let accessory = shownAccessory {
            trailing += TableViewMetrics.contentMargin + accessory.frame.width
        }
        return (leading, max(0, width - leading - trailing))
    }

    private func contentWidth(inCellWidth width: CGFloat) -> CGFloat {
        contentSpan(inCellWidth: width).width
    }

    /// Places the content view beside the accessory and above the separator,
    /// the standard labels and image in it as the style says, the
    /// backgrounds, and the separator.
    open override func layoutSubviews() {
        super.layoutSubviews()
        let (contentX, contentWidth) = contentSpan(inCellWidth: bounds.width)
        let scale = max(1, UIScreen.main.scale)
        let contentHeight = (max(0, bounds.height - separatorHeight) * scale).rounded() / scale
        if let accessory = shownAccessory {
            let size = accessory is StandardAccessoryView
                ? CGSize(width: accessory.frame.width, height: bounds.height)
                : accessory.frame.size
            accessory.frame = CGRect(x: contentX + contentWidth + swipeOffset, y: ((bounds.height - size.height) / 2).rounded(),
                                     width: size.width, height: size.height)
            accessory.isHidden = isEditing
        }
        editControl?.frame = CGRect(x: swipeOffset, y: 0, width: TableViewMetrics.editControlWidth, height: contentHeight)
        reorderControl?.frame = CGRect(x: bounds.width - TableViewMetrics.reorderControlWidth + swipeOffset, y: 0,
                                       width: TableViewMetrics.reorderControlWidth, height: contentHeight)
        contentView.frame = CGRect(x: contentX + swipeOffset, y: 0, width: contentWidth, height: contentHeight)
        backgroundView?.frame = bounds
        storedSelectedBackgroundView?.frame = bounds
        let hairline = 1 / max(1, UIScreen.main.scale)
        let insetLeft = max(0, separatorInset.left), insetRight = max(0, separatorInset.right)
        separator.frame = CGRect(x: insetLeft, y: bounds.height - hairline,
                                 width: max(0, bounds.width - insetLeft - insetRight), height: hairline)
        layoutStandardContent(in: CGRect(x: 0, y: 0, width: contentWidth, height: bounds.height))
        if isRightToLeft { mirrorLayout(contentWidth: contentWidth) }
    }

    /// A right-to-left cell is its left-to-right layout seen in a mirror, as
    /// UIKit's: the image and text from the right, the accessory, reorder
    /// control and trailing swipe actions on the left, the editing control on
    /// the right, the separator's `left` inset on the right (UIKit applies
    /// the inset to the leading side). Each part keeps its size; text in the
    /// labels is aligned to the right by their own direction.
    private func mirrorLayout(contentWidth: CGFloat) {
        for view in [shownAccessory, editControl, reorderControl, contentView, separator] as [UIView?] {
            view?.frame.origin.x = bounds.width - (view?.frame.maxX ?? 0)
        }
        for view in [storedImageView, storedTextLabel, storedDetailTextLabel] as [UIView?] {
            view?.frame.origin.x = contentWidth - (view?.frame.maxX ?? 0)
        }
    }

    /// How far a swipe has moved the content sideways to uncover the row's
    /// actions (the table view sets it).
    var swipeOffset: CGFloat = 0 {
        didSet {
            guard swipeOffset != oldValue else { return }
            setNeedsLayout()
            layoutIfNeeded()
        }
    }

    private func layoutStandardContent(in area: CGRect) {
        let margin = TableViewMetrics.contentMargin
        var left = margin
        if let imageView = storedImageView, let image = imageView.image {
            let size = image.size
            imageView.frame = CGRect(x: margin, y: ((area.height - size.height) / 2).rounded(), width: size.width, height: size.height)
            left = imageView.frame.maxX + TableViewMetrics.imageTextSpacing
        }
        let right = area.width - (shownAccessory == nil ? margin : 0)
        let width = max(0, right - left)
        let unbounded = CGSize(width: width, height: .greatestFiniteMagnitude)
        switch style {
        case .default:
            if let label = storedTextLabel {
                let height = label.sizeThatFits(unbounded).height
                label.frame = CGRect(x: left, y: ((area.height - height) / 2).rounded(), width: width, height: height)
            }
        case .subtitle:
            let textHeight = storedTextLabel?.sizeThatFits(unbounded).height ?? 0
            let detailHeight = storedDetailTextLabel?.sizeThatFits(unbounded).height ?? 0
            let top = ((area.height - textHeight - detailHeight) / 2).rounded()
            storedTextLabel?.frame = CGRect(x: left, y: top, width: width, height: textHeight)
            storedDetailTextLabel?.frame = CGRect(x: left, y: top + textHeight, width: width, height: detailHeight)
        case .value1:
            let detailSize = storedDetailTextLabel?.sizeThatFits(unbounded) ?? .zero
            let detailWidth = min(detailSize.width, width)
            storedDetailTextLabel?.frame = CGRect(x: right - detailWidth, y: ((area.height - detailSize.height) / 2).rounded(),
                                                  width: detailWidth, height: detailSize.height)
            let textHeight = storedTextLabel?.sizeThatFits(unbounded).height ?? 0
            storedTextLabel?.frame = CGRect(x: left, y: ((area.height - textHeight) / 2).rounded(),
                                            width: max(0, width - detailWidth - 8), height: textHeight)
        case .value2:
            // The title column is a quarter of the width, as UIKit's value2 cells (Contacts' look).
            let column = (width * 0.25).rounded()
            let textHeight = storedTextLabel?.sizeThatFits(unbounded).height ?? 0
            storedTextLabel?.frame = CGRect(x: left, y: ((area.height - textHeight) / 2).rounded(), width: column, height: textHeight)
            let detailHeight = storedDetailTextLabel?.sizeThatFits(unbounded).height ?? 0
            storedDetailTextLabel?.frame = CGRect(x: left + column + 6, y: ((area.height - detailHeight) / 2).rounded(),
                                                  width: max(0, width - column - 6), height: detailHeight)
        }
    }
}

/// The chevron, checkmark and info button of the standard accessories,
/// drawn with paths.
final class StandardAccessoryView: UIView {
    let type: UITableViewCell.AccessoryType

    init(type: UITableViewCell.AccessoryType) {
        self.type = type
        let width = type == .detailDisclosureButton ? TableViewMetrics.detailDisclosureAccessoryWidth : TableViewMetrics.accessoryWidth
        super.init(frame: CGRect(x: 0, y: 0, width: width, height: TableViewMetrics.defaultRowHeight))
        isUserInteractionEnabled = false
    }

    required init?(coder: NSCoder) {
        type = .none
        super.init(coder: coder)
    }

    override func draw(_ rect: CGRect) {
        let midY = bounds.midY
        let right = bounds.maxX
        switch type {
        case .none:
            break
        case .disclosureIndicator:
            chevron(right: right, midY: midY).stroke()
        case .checkmark:
            UIColor.tintColor.setStroke()
            let path = UIBezierPath()
            path.move(to: CGPoint(x: right - 15, y: midY))
            path.addLine(to: CGPoint(x: right - 10, y: midY + 5))
            path.addLine(to: CGPoint(x: right - 1, y: midY - 6))
            path.lineWidth = 2
            path.lineCapStyle = .round
            path.lineJoinStyle = .round
            path.stroke()
        case .detailButton, .detailDisclosureButton:
            UIColor.tintColor.setStroke()
            let centreX = type == .detailButton ? right - 10 : right - 24
            let circle = UIBezierPath(ovalIn: CGRect(x: centreX - 9, y: midY - 9, width: 18, height: 18))
            circle.lineWidth = 1.5
            circle.stroke()
            let stem = UIBezierPath()
            stem.move(to: CGPoint(x: centreX, y: midY - 1))
            stem.addLine(to: CGPoint(x: centreX, y: midY + 5))
            stem.move(to: CGPoint(x: centreX, y: midY - 5))
            stem.addLine(to: CGPoint(x: centreX, y: midY - 4))
            stem.lineWidth = 2
            stem.stroke()
            if type == .detailDisclosureButton { chevron(right: right, midY: midY).stroke() }
        }
    }

    private func chevron(right: CGFloat, midY: CGFloat) -> UIBezierPath {
        UIColor.tertiaryLabel.setStroke()
        let path = UIBezierPath()
        path.move(to: CGPoint(x: right - 7, y: midY - 6))
        path.addLine(to: CGPoint(x: right - 1, y: midY))
        path.addLine(to: CGPoint(x: right - 7, y: midY + 6))
        path.lineWidth = 2
        path.lineCapStyle = .round
        path.lineJoinStyle = .round
        return path
    }
}

/// The round button on the leading side of a row in editing mode: red with
/// a bar to delete (a tap asks for confirmation), green with a plus to insert.
final class TableEditControl: UIControl {
    let style: UITableViewCell.EditingStyle

    init(style: UITableViewCell.EditingStyle) {
        self.style = style
        super.init(frame: .zero)
        backgroundColor = .clear
    }

    required init?(coder: NSCoder) {
        style = .delete
        super.init(coder: coder)
    }

    override func draw(_ rect: CGRect) {
        let diameter = TableViewMetrics.editControlDiameter
        let centre = CGPoint(x: bounds.midX, y: bounds.midY)
        (style == .insert ? UIColor.systemGreen : UIColor.systemRed).setFill()
        UIBezierPath(ovalIn: CGRect(x: centre.x - diameter / 2, y: centre.y - diameter / 2, width: diameter, height: diameter)).fill()
        UIColor.white.setFill()
        let bar = diameter / 2
        UIBezierPath(rect: CGRect(x: centre.x - bar / 2, y: centre.y - 1, width: bar, height: 2)).fill()
        if style == .insert {
            UIBezierPath(rect: CGRect(x: centre.x - 1, y: centre.y - bar / 2, width: 2, height: bar)).fill()
        }
    }
}

/// The three lines on the trailing side of a row that can be moved, in
/// editing mode: a finger on them picks the row up
/// (`UITableView+Reordering.swift`).
final class TableReorderControl: UIView {
    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .clear
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func draw(_ rect: CGRect) {
        UIColor.tertiaryLabel.setFill()
        let width = TableViewMetrics.reorderGripWidth
        for line in -1...1 {
            UIBezierPath(rect: CGRect(x: bounds.midX - width / 2, y: bounds.midY + CGFloat(line) * 5 - 1,
                                      width: width, height: 2)).fill()
        }
    }
}
