import Foundation

/// A section's header or footer: a content view and a title label. The
/// table view makes one of these for a section with a title and no custom
/// view; register a subclass to reuse your own.
@preconcurrency @MainActor
open class UITableViewHeaderFooterView: UIView {
    /// The identifier the table view keeps the view under for reuse.
    public let reuseIdentifier: String?

    /// Makes a view kept for reuse under `reuseIdentifier`.
    public init(reuseIdentifier: String?) {
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
        addSubview(contentView)
    }

    public required init?(coder: NSCoder) {
        reuseIdentifier = nil
        super.init(coder: coder)
        addSubview(contentView)
    }

    /// A view without a reuse identifier.
    public override convenience init(frame: CGRect) {
        self.init(reuseIdentifier: nil)
        self.frame = frame
    }

    /// How a table view makes a view of a registered class, through the
    /// class's own `init(reuseIdentifier:)`.
    public required convenience init(registeredWithReuseIdentifier identifier: String) {
        self.init(reuseIdentifier: identifier)
    }

    /// Holds the view's content: add your subviews here.
    public let contentView = UIView()

    /// The title, made the first time it is asked for.
    open var textLabel: UILabel? {
        if let storedTextLabel { return storedTextLabel }
        let label = UILabel()
        label.font = .systemFont(ofSize: 13)
        label.textColor = .secondaryLabel
        storedTextLabel = label
        contentView.addSubview(label)
        setNeedsLayout()
        return label
    }
    private var storedTextLabel: UILabel?

    /// Called before the table view hands the view out again.
    open func prepareForReuse() {}

    /// The look of the table's own title headers and footers: a bold
    /// title on a light grey bar in the plain style; a small grey caption
    /// (upper case in the grouped style) on the table's background otherwise.
    func configureStandard(title: String?, tableStyle: UITableView.Style, isHeader: Bool) {
        guard let label = textLabel else { return }
        isTitleAtBottom = isHeader && tableStyle != .plain
        if tableStyle == .plain {
            backgroundColor = .secondarySystemBackground
            label.font = .boldSystemFont(ofSize: 15)
            label.textColor = .label
            label.text = title
        } else {
            backgroundColor = nil
            label.font = .systemFont(ofSize: 13)
            label.textColor = .secondaryLabel
            label.text = tableStyle == .grouped && isHeader ? title?.uppercased() : title
        }
        setNeedsLayout()
    }

    /// Grouped headers put their caption just above the section's first row.
    private var isTitleAtBottom = false

    open override func layoutSubviews() {
        super.layoutSubviews()
        let safe = tableContentSafeAreaInsets
        contentView.frame = CGRect(x: safe.left, y: 0, width: max(0, bounds.width - safe.left - safe.right), height: bounds.height)
        guard let label = storedTextLabel else { return }
        let margin = TableViewMetrics.contentMargin
        let width = max(0, contentView.bounds.width - 2 * margin)
        let height = label.sizeThatFits(CGSize(width: width, height: .greatestFiniteMagnitude)).height
        let y = isTitleAtBottom ? bounds.height - height - 7 : ((bounds.height - height) / 2).rounded()
        label.frame = CGRect(x: margin, y: y, width: width, height: height)
    }
}
