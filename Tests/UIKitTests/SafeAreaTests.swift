import HID
import TestExpectations
import Testing
@testable import UIKit

/// The safe area, from the screen's insets down to views, view
/// controllers and scroll views (`SafeArea.swift`).
@MainActor
@Suite struct SafeAreaTests {
    /// An iPhone 12–14's portrait safe area (see the event server's `Screen.knownSafeAreas`).
    static let phone = UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0)

    /// A view that logs its safe area changes into `log`.
    final class WatchingView: UIView {
        var name = ""
        var log: CallLog?
        override func safeAreaInsetsDidChange() {
            super.safeAreaInsetsDidChange()
            log?.add("\(name) \(safeAreaInsets.top),\(safeAreaInsets.bottom)")
        }
    }

    final class WatchingController: UIViewController {
        let log: CallLog
        init(log: CallLog) {
            self.log = log
            super.init(nibName: nil, bundle: nil)
        }
        required init?(coder: NSCoder) { nil }
        override func loadView() {
            let view = WatchingView()
            view.name = "root"
            view.log = log
            self.view = view
        }
        override func viewSafeAreaInsetsDidChange() {
            super.viewSafeAreaInsetsDidChange()
            log.add("controller \(view.safeAreaInsets.top),\(view.safeAreaInsets.bottom)")
        }
    }

    /// A window that covers a 400 × 800 screen.
    private func screenFilledByAWindow() -> UIWindow {
        let window = makeWindow()
        UIScreen.main.bounds = window.frame
        return window
    }

    @Test func aWindowHasTheScreensInsetsClippedToItsFrame() {
        let window = screenFilledByAWindow()
        expectEqual(window.safeAreaInsets, .zero)
        UIScreen.main.safeAreaInsets = Self.phone
        expectEqual(window.safeAreaInsets, Self.phone)
        let upper = UIWindow(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        expectEqual(upper.safeAreaInsets, UIEdgeInsets(top: 47, left: 0, bottom: 0, right: 0))
        let middle = UIWindow(frame: CGRect(x: 0, y: 100, width: 400, height: 300))
        expectEqual(middle.safeAreaInsets, .zero)
        // Insets that are not finite or are negative are refused.
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: .nan, left: 0, bottom: 0, right: 0)
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: -3, left: 0, bottom: 0, right: 0)
        expectEqual(UIScreen.main.safeAreaInsets, Self.phone)
    }

    @Test func viewsTakeWhatTheyOverlapAndControllersAddTheirExtraInsets() {
        let window = screenFilledByAWindow()
        let log = CallLog()
        let controller = WatchingController(log: log)
        window.rootViewController = controller
        let band = WatchingView(frame: CGRect(x: 0, y: 20, width: 400, height: 100))
        band.name = "band"
        band.log = log
        controller.view.addSubview(band)
        let middle = WatchingView(frame: CGRect(x: 0, y: 300, width: 400, height: 100))
        middle.name = "middle"
        middle.log = log
        controller.view.addSubview(middle)
        #expect(log.entries.isEmpty, "no safe area yet, nothing to announce")

        UIScreen.main.safeAreaInsets = Self.phone
        // Top down: the root view, then its controller, then the subviews whose safe area changed.
        expectEqual(log.entries, ["root 47.0,34.0", "controller 47.0,34.0", "band 27.0,0.0"])
        expectEqual(band.safeAreaInsets, UIEdgeInsets(top: 27, left: 0, bottom: 0, right: 0))
        expectEqual(middle.safeAreaInsets, .zero)
        expectEqual(band.safeAreaLayoutGuide.layoutFrame, CGRect(x: 0, y: 27, width: 400, height: 73))

        log.clear()
        controller.additionalSafeAreaInsets = UIEdgeInsets(top: 10, left: 0, bottom: 0, right: 0)
        expectEqual(controller.view.safeAreaInsets, UIEdgeInsets(top: 57, left: 0, bottom: 34, right: 0))
        expectEqual(log.entries, ["root 57.0,34.0", "controller 57.0,34.0", "band 37.0,0.0"])

        log.clear()
        band.frame.origin.y = 60
        expectEqual(log.entries, ["band 0.0,0.0"], "moved below the safe area's top (57)")
        expectEqual(band.safeAreaInsets, .zero)
        band.frame.origin.y = 0
        expectEqual(log.entries, ["band 0.0,0.0", "band 57.0,0.0"])

        log.clear()
        UIScreen.main.safeAreaInsets = Self.phone
        #expect(log.entries.isEmpty, "the same insets again change nothing")
        band.removeFromSuperview()
        expectEqual(log.entries, ["band 0.0,0.0"], "out of the window, no safe area")
    }

    @Test func aTablesFirstRowSitsBelowTheTopInsetAndItsRowsDoNotTakeItAgain() throws {
        let window = screenFilledByAWindow()
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.rowHeight = 44
        let log = TableLog(rowCounts: [100])
        table.dataSource = log
        window.addSubview(table)
        window.layoutIfNeeded()
        expectEqual(table.adjustedContentInset, .zero)

        UIScreen.main.safeAreaInsets = Self.phone
        window.layoutIfNeeded()
        // Tables bounce vertically, so `.automatic` takes the top and bottom in.
        expectEqual(table.adjustedContentInset, Self.phone)
        expectEqual(table.contentOffset.y, -47, "content resting at its top stays at the new top")
        let first = try #require(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        expectEqual(first.convert(first.bounds, to: window).minY, 47)
        expectEqual(first.safeAreaInsets, .zero, "the table took the top in; its rows do not take it again")
        // At the far end, the last row stops above the bottom inset.
        table.contentOffset.y = table.contentSize.height + 34 - table.bounds.height
        window.layoutIfNeeded()
        let last = try #require(table.cellForRow(at: IndexPath(row: 99, section: 0)))
        // (Row tops are running sums of the heights: within a float's error of 766.)
        #expect(abs(last.convert(last.bounds, to: window).maxY - (800 - 34)) < 1e-6)
        expectEqual(last.safeAreaInsets, .zero)

        table.contentInsetAdjustmentBehavior = .never
        expectEqual(table.adjustedContentInset, .zero)
    }

    @Test func scrollViewsAdjustAlongTheAxesTheirBehaviourNames() {
        let window = screenFilledByAWindow()
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: 47, left: 10, bottom: 34, right: 20)
        let scrollView = UIScrollView(frame: window.bounds)
        window.addSubview(scrollView)
        // Short content does not scroll: `.automatic` outside a navigation controller adds nothing.
        scrollView.contentSize = CGSize(width: 400, height: 500)
        expectEqual(scrollView.adjustedContentInset, .zero)
        expectEqual(scrollView.contentOffset, .zero)
        scrollView.contentSize = CGSize(width: 400, height: 2000)
        expectEqual(scrollView.adjustedContentInset, UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
        expectEqual(scrollView.contentOffset, CGPoint(x: 0, y: -47))
        scrollView.contentInset = UIEdgeInsets(top: 5, left: 0, bottom: 0, right: 0)
        expectEqual(scrollView.adjustedContentInset, UIEdgeInsets(top: 52, left: 0, bottom: 34, right: 0))
        scrollView.contentInsetAdjustmentBehavior = .always
        expectEqual(scrollView.adjustedContentInset, UIEdgeInsets(top: 52, left: 10, bottom: 34, right: 20))
        scrollView.contentInsetAdjustmentBehavior = .never
        expectEqual(scrollView.adjustedContentInset, UIEdgeInsets(top: 5, left: 0, bottom: 0, right: 0))
        // With none taken in, a subview scrolled under the top inset has it.
        let content = UIView(frame: CGRect(x: 0, y: 0, width: 400, height: 100))
        scrollView.addSubview(content)
        scrollView.contentOffset = CGPoint(x: 0, y: 20)
        expectEqual(content.safeAreaInsets, UIEdgeInsets(top: 67, left: 10, bottom: 0, right: 20))
        scrollView.contentInsetAdjustmentBehavior = .always
        expectEqual(content.safeAreaInsets, .zero)
    }

    /// A controller whose view is a table of `rows` rows of 44 points.
    private final class TableController: UIViewController {
        let rows = TableLog(rowCounts: [100])
        var table: UITableView { view as! UITableView }
        override func loadView() {
            let table = UITableView(frame: .zero, style: .plain)
            table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
            table.rowHeight = 44
            table.dataSource = rows
            view = table
        }
    }

    /// As in UIKit on an iPhone (useyourloaf.com's "Supporting iPhone X": the
    /// safe area's top is the status bar's plus the 44-point bar's, 64 on an
    /// iPhone 8 and 88 on an iPhone X; the bottom is the home indicator's 34
    /// "more if we add a tab bar"; tab bars reach down under the home
    /// indicator): a list in a navigation controller in a tab bar controller
    /// fills the screen, reaching under both bars, and rests with its first
    /// row below the navigation bar and scrolls its last row to above the
    /// tab bar, which grows from 49 to 83 points over the home indicator.
    @Test func aListInANavigationControllerInATabReachesUnderBothBarsAndRestsBetweenThem() throws {
        let window = screenFilledByAWindow()
        UIScreen.main.safeAreaInsets = Self.phone
        let list = TableController()
        let navigation = UINavigationController(rootViewController: list)
        let tabs = UITabBarController()
        tabs.viewControllers = [navigation, UIViewController()]
        window.rootViewController = tabs
        window.layoutIfNeeded()

        expectEqual(tabs.tabBar.frame, CGRect(x: 0, y: 800 - 83, width: 400, height: 83))
        #expect(navigation.view.frame == window.bounds && navigation.view.safeAreaInsets == UIEdgeInsets(top: 47, left: 0, bottom: 83, right: 0))
        expectEqual(navigation.navigationBar.frame, CGRect(x: 0, y: 47, width: 400, height: 44))
        let table = list.table
        expectEqual(table.convert(table.bounds, to: window), window.bounds)
        expectEqual(table.safeAreaInsets, UIEdgeInsets(top: 91, left: 0, bottom: 83, right: 0))
        expectEqual(table.adjustedContentInset, UIEdgeInsets(top: 91, left: 0, bottom: 83, right: 0))
        let first = try #require(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        expectEqual(first.convert(first.bounds, to: window).minY, 91, "the first row rests just below the bar")
        table.contentOffset.y = table.contentSize.height + 83 - table.bounds.height
        window.layoutIfNeeded()
        let last = try #require(table.cellForRow(at: IndexPath(row: 99, section: 0)))
        #expect(abs(last.convert(last.bounds, to: window).maxY - (800 - 83)) < 1e-6, "the last row ends at the tab bar")

        // Another tab, a plain controller: its view's safe area ends above the tab bar.
        tabs.selectedIndex = 1
        window.layoutIfNeeded()
        let other = try #require(tabs.selectedViewController?.view)
        #expect(other.frame == window.bounds && other.safeAreaInsets == UIEdgeInsets(top: 47, left: 0, bottom: 83, right: 0))
    }

    /// The tab bar's items keep its top 49 points while the bar grows with
    /// the bottom inset, and the tab's view follows changes of the bar.
    @Test func theTabBarGrowsWithTheBottomInsetAndItsItemsStayInItsTop() {
        let window = screenFilledByAWindow()
        let log = CallLog()
        let child = WatchingController(log: log)
        child.tabBarItem = UITabBarItem(title: "Home", image: nil, tag: 0)
        let tabs = UITabBarController()
        tabs.viewControllers = [child]
        window.rootViewController = tabs
        window.layoutIfNeeded()
        expectEqual(tabs.tabBar.frame, CGRect(x: 0, y: 800 - 49, width: 400, height: 49))
        expectEqual(log.entries.last, "controller 0.0,49.0")

        log.clear()
        UIScreen.main.safeAreaInsets = Self.phone
        window.layoutIfNeeded()
        expectEqual(tabs.tabBar.frame, CGRect(x: 0, y: 800 - 83, width: 400, height: 83))
        expectEqual(tabs.tabBar.sizeThatFits(window.bounds.size).height, 83)
        let button = tabs.tabBar.button(for: child.tabBarItem)
        expectEqual(button?.frame, CGRect(x: 0, y: 0, width: 400, height: 49), "the items keep the top 49 points")
        expectEqual(child.view.safeAreaInsets, UIEdgeInsets(top: 47, left: 0, bottom: 83, right: 0))
        expectEqual(log.entries.last, "controller 47.0,83.0")

        // An opaque bar: the view ends above it and keeps only the top inset.
        tabs.tabBar.isTranslucent = false
        window.layoutIfNeeded()
        expectEqual(child.view.frame, CGRect(x: 0, y: 0, width: 400, height: 800 - 83))
        expectEqual(child.view.safeAreaInsets, UIEdgeInsets(top: 47, left: 0, bottom: 0, right: 0))
    }

    /// UIKit's `insetsContentViewsToSafeArea` (true by default): a table's
    /// cells, headers and footers keep their content views inside the
    /// left and right insets, while their backgrounds and separators
    /// reach the edges.
    @Test func tableCellsKeepTheirContentInsideTheLeftAndRightInsets() throws {
        let window = screenFilledByAWindow()
        // A landscape iPhone's sides (44 each); none at the top here.
        UIScreen.main.safeAreaInsets = UIEdgeInsets(top: 0, left: 44, bottom: 21, right: 44)
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.rowHeight = 44
        let rows = TableLog(rowCounts: [30])
        rows.headerTitles[0] = "Header"
        table.dataSource = rows
        window.addSubview(table)
        window.layoutIfNeeded()

        let cell = try #require(table.cellForRow(at: IndexPath(row: 0, section: 0)))
        #expect(cell.frame.minX == 0 && cell.frame.width == 400)
        #expect(cell.safeAreaInsets.left == 44 && cell.safeAreaInsets.right == 44)
        #expect(cell.contentView.frame.minX == 44 && cell.contentView.frame.width == 400 - 88)
        expectEqual(cell.separator.frame.maxX, 400, "the separator reaches the right edge")
        let header = try #require(table.headerView(forSection: 0))
        #expect(header.contentView.frame.minX == 44 && header.contentView.frame.width == 400 - 88)

        // A chevron stays inside the inset too.
        cell.accessoryType = .disclosureIndicator
        cell.layoutIfNeeded()
        let chevron = try #require(cell.shownAccessory)
        #expect(chevron.frame.minX >= cell.contentView.frame.maxX && chevron.frame.maxX <= 400 - 44)

        table.insetsContentViewsToSafeArea = false
        cell.accessoryType = .none
        window.layoutIfNeeded()
        expectEqual(cell.contentView.frame, CGRect(x: 0, y: 0, width: 400, height: cell.contentView.frame.height))
        #expect(header.contentView.frame.minX == 0 && header.contentView.frame.width == 400)
    }

    /// The welcome's safe area is the screen's, and the windows follow.
    @Test func theEventServersSafeAreaBecomesTheScreens() throws {
        let window = screenFilledByAWindow()
        expectEqual(window.safeAreaInsets, .zero)
        UIApplication.shared.adoptScreen(of: .init(
            clientIdentifier: 1, screenWidth: 400, screenHeight: 800, screenScale: 3,
            screenSafeArea: .init(top: 59, left: 0, bottom: 34, right: 0), isForeground: true))
        expectEqual(UIScreen.main.safeAreaInsets, UIEdgeInsets(top: 59, left: 0, bottom: 34, right: 0))
        expectEqual(window.safeAreaInsets, UIEdgeInsets(top: 59, left: 0, bottom: 34, right: 0))
    }
}
