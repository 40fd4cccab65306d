import DrawingTestSupport
import Testing
@testable import UIKit

/// Reference pictures of the three table styles (References/table-*.png):
/// two sections with titles, the four cell styles, the standard
/// accessories, a selected row, and a plain table scrolled so that its
/// second section's header sticks to the top.
@MainActor
@Suite struct TableDrawingTests {
    @MainActor
    final class Showcase: UITableViewDataSource, UITableViewDelegate {
        func numberOfSections(in tableView: UITableView) -> Int { 2 }
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { section == 0 ? 4 : 3 }
        func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { section == 0 ? "Styles" : "Accessories" }
        func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { section == 1 ? "Three accessories." : nil }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            if indexPath.section == 0 {
                let styles: [UITableViewCell.CellStyle] = [.default, .subtitle, .value1, .value2]
                let names = ["Default", "Subtitle", "Value 1", "Value 2"]
                let cell = UITableViewCell(style: styles[indexPath.row], reuseIdentifier: nil)
                cell.textLabel?.text = names[indexPath.row]
                cell.detailTextLabel?.text = "Detail"
                return cell
            }
            let accessories: [UITableViewCell.AccessoryType] = [.disclosureIndicator, .checkmark, .detailDisclosureButton]
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            cell.textLabel?.text = ["Chevron", "Checkmark", "Info and chevron"][indexPath.row]
            cell.accessoryType = accessories[indexPath.row]
            return cell
        }
    }

    private func picture(_ style: UITableView.Style, offset: CGFloat = 0) -> CGImage {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 460))
        let table = UITableView(frame: window.bounds, style: style)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.showsVerticalScrollIndicator = false
        let showcase = Showcase()
        table.dataSource = showcase
        table.delegate = showcase
        window.addSubview(table)
        table.layoutIfNeeded()
        table.selectRow(at: IndexPath(row: 2, section: 0), animated: false, scrollPosition: .none)
        table.contentOffset = CGPoint(x: 0, y: offset)
        table.layoutIfNeeded()
        // A container, so that the picture shows the table's frame rather than its content's coordinates.
        let container = UIView(frame: table.frame)
        container.addSubview(table)
        window.addSubview(container)
        return withExtendedLifetime(showcase) { snapshot(container) }
    }

    @Test func plain() {
        expectMatchesReference(picture(.plain), named: "table-plain", tolerance: 3)
    }

    @Test func plainWithAStickyHeader() {
        // Scrolled 60 points: the first section's header stays at the top, over its rows.
        expectMatchesReference(picture(.plain, offset: 60), named: "table-plain-sticky-header", tolerance: 3)
    }

    @Test func grouped() {
        expectMatchesReference(picture(.grouped), named: "table-grouped", tolerance: 3)
    }

    @Test func insetGrouped() {
        expectMatchesReference(picture(.insetGrouped), named: "table-inset-grouped", tolerance: 3)
    }

    /// Editing mode: red delete buttons and a green insert button on the
    /// leading side, reorder grips on the trailing side of the rows that
    /// can move, the accessory hidden, the content standing in; a row that
    /// cannot be edited keeps its content at the edge.
    @MainActor
    final class EditingShowcase: UITableViewDataSource, UITableViewDelegate {
        let names = ["Delete or move", "Insert", "Move only", "Delete only"]
        func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { names.count }
        func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
            cell.textLabel?.text = names[indexPath.row]
            cell.accessoryType = .disclosureIndicator
            return cell
        }
        func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { indexPath.row != 2 }
        func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool { indexPath.row != 3 }
        func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle {
            indexPath.row == 1 ? .insert : .delete
        }
    }

    @Test func editing() {
        let window = makeWindow(frame: CGRect(x: 0, y: 0, width: 320, height: 200))
        let table = UITableView(frame: window.bounds, style: .plain)
        table.register(UITableViewCell.self, forCellReuseIdentifier: "row")
        table.showsVerticalScrollIndicator = false
        let showcase = EditingShowcase()
        table.dataSource = showcase
        table.delegate = showcase
        window.addSubview(table)
        table.setEditing(true, animated: false)
        window.layoutIfNeeded()
        let container = UIView(frame: table.frame)
        container.addSubview(table)
        window.addSubview(container)
        let picture = withExtendedLifetime(showcase) { snapshot(container) }
        expectMatchesReference(picture, named: "table-editing", tolerance: 3)
    }
}
