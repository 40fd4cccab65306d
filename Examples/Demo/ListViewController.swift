import UIKit

/// A list of 1,000 rows in a scroll view: only the rows on screen exist,
/// moved into place as the list scrolls, decelerates and bounces. A tapped
/// row pushes a screen about it; its back button, or a swipe from the left
/// edge, comes back.
final class ListViewController: UIViewController, UIScrollViewDelegate {
    static let rowCount = 1000
    static let rowHeight: CGFloat = 44
    private let list = RowList()

    /// The list at the root of a navigation controller, which is the tab.
    static func inNavigationController() -> UINavigationController {
        let navigation = UINavigationController(rootViewController: ListViewController())
        navigation.tabBarItem = UITabBarItem(title: "List", image: UIImage(systemName: "list.bullet"), tag: 1)
        return navigation
    }

    override init(nibName: String?, bundle: Bundle?) {
        super.init(nibName: nibName, bundle: bundle)
        title = "List"
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        list.delegate = self
        let tap = UITapGestureRecognizer()
        tap.addTarget(self, action: ListViewController.rowTapped)
        list.addGestureRecognizer(tap)
        view.addSubview(list)
    }

    private func rowTapped(_ tap: UITapGestureRecognizer) {
        let row = Int(tap.location(in: list).y / Self.rowHeight) + 1
        guard row >= 1, row <= Self.rowCount else { return }
        say("list row \(row) tapped")
        navigationController?.pushViewController(RowViewController(row: row), animated: true)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        list.frame = view.bounds
    }

    func scrollViewWillBeginDragging(_ scrollView: UIScrollView) {
        say("list dragging from \(describe(scrollView.contentOffset.y))")
    }

    func scrollViewDidEndDragging(_ scrollView: UIScrollView, willDecelerate decelerate: Bool) {
        say("list offset \(describe(scrollView.contentOffset.y))\(decelerate ? ", decelerating" : "")")
    }

    func scrollViewDidEndDecelerating(_ scrollView: UIScrollView) {
        say("list stopped at \(describe(scrollView.contentOffset.y))")
    }
}

/// The scroll view of the list: its rows are labels reused as they scroll
/// off one edge and on at the other.
final class RowList: UIScrollView {
    private var rows: [Int: UILabel] = [:]
    private var spare: [UILabel] = []

    override init(frame: CGRect) {
        super.init(frame: frame)
        contentSize = CGSize(width: frame.width, height: CGFloat(ListViewController.rowCount) * ListViewController.rowHeight)
        alwaysBounceVertical = true
        backgroundColor = .systemBackground
    }

    required init?(coder: NSCoder) { nil }

    override func layoutSubviews() {
        super.layoutSubviews()
        contentSize.width = bounds.width
        let height = ListViewController.rowHeight
        let first = max(0, Int(bounds.minY / height))
        let last = min(ListViewController.rowCount - 1, Int(bounds.maxY / height))
        for (index, label) in rows where index < first || index > last {
            label.removeFromSuperview()
            spare.append(label)
            rows[index] = nil
        }
        guard first <= last else { return }
        for index in first...last where rows[index] == nil {
            let label = spare.popLast() ?? UILabel()
            label.frame = CGRect(x: 0, y: CGFloat(index) * height, width: bounds.width, height: height - 1)
            label.text = "    Row \(index + 1)"
            label.backgroundColor = index % 2 == 0 ? .systemBackground : .secondarySystemBackground
            addSubview(label)
            rows[index] = label
        }
    }
}

/// The screen a tapped row pushes: the row's number, large.
final class RowViewController: UIViewController {
    private let row: Int

    init(row: Int) {
        self.row = row
        super.init(nibName: nil, bundle: nil)
        title = "Row \(row)"
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .secondarySystemBackground
        let label = UILabel(frame: view.bounds)
        label.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        label.text = "\(row)"
        label.font = .systemFont(ofSize: 96, weight: .bold)
        label.textAlignment = .center
        view.addSubview(label)
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        say("row \(row) shown")
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        say("row \(row) gone")
    }
}
