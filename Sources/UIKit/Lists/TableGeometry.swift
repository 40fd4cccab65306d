import Foundation

/// Where every header, row and footer of a table view lies, along its
/// content's height: worked out at reload from the data source's counts
/// and the delegate's heights, and searched by halving for the rows a
/// rectangle or point falls on, so that a table of a million rows answers
/// in a few steps.
struct TableGeometry {
    struct Section {
        /// The top of the section's header, in content coordinates.
        var top: CGFloat
        var headerHeight: CGFloat
        /// The top of each row, then the bottom of the last one: one more
        /// entry than there are rows.
        var rowTops: [CGFloat]
        var footerHeight: CGFloat
        /// Rows whose height comes from their cell (``UITableView/automaticDimension``)
        /// and that have not been measured since the last reload or update.
        var unmeasured: Set<Int> = []
        /// Rows whose height is one their cell gave: measured, or carried
        /// over an update from the row's measured height before it.
        var selfSized: Set<Int> = []

        var rowCount: Int { rowTops.count - 1 }
        var rowsTop: CGFloat { rowTops[0] }
        var rowsBottom: CGFloat { rowTops[rowTops.count - 1] }
        var bottom: CGFloat { rowsBottom + footerHeight }
    }

    var sections: [Section] = []
    /// The top of the first section: the table header view's height.
    var top: CGFloat = 0
    /// Space between sections (grouped styles leave none beyond their
    /// headers and footers; kept for the plain style's zero).
    var height: CGFloat = 0

    /// The number of rows in each section.
    var rowCounts: [Int] {
        var counts: [Int] = []
        counts.reserveCapacity(sections.count)
        for section in sections { counts.append(section.rowCount) }
        return counts
    }

    func section(_ index: Int) -> Section? {
        index >= 0 && index < sections.count ? sections[index] : nil
    }

    func contains(_ indexPath: IndexPath) -> Bool {
        guard indexPath.count == 2, let section = section(indexPath.section) else { return false }
        return indexPath.row >= 0 && indexPath.row < section.rowCount
    }

    /// The vertical extent of a row (no check: the caller knows it exists).
    func rowSpan(section: Int, row: Int) -> (top: CGFloat, bottom: CGFloat) {
        let tops = sections[section].rowTops
        return (tops[row], tops[row + 1])
    }

    /// The index of the last section whose top is at or above `y`, or nil
    /// above the first section.
    func sectionIndex(atOrAbove y: CGFloat) -> Int? {
        var low = 0, high = sections.count - 1, found: Int?
        while low <= high {
            let middle = (low + high) / 2
            if sections[middle].top <= y {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return found
    }

    /// The row of `section` whose span holds `y` (the last row whose top is
    /// at or above it), or nil if `y` is outside the section's rows.
    func row(in section: Int, at y: CGFloat) -> Int? {
        let tops = sections[section].rowTops
        guard tops.count > 1, y >= tops[0], y < tops[tops.count - 1] else { return nil }
        var low = 0, high = tops.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if tops[middle] <= y { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The first row (in section order) whose bottom is below `y`, or nil
    /// if every row ends at or above `y`.
    func firstRow(endingBelow y: CGFloat) -> (section: Int, row: Int)? {
        var sectionIndex = self.sectionIndex(atOrAbove: y) ?? 0
        while sectionIndex < sections.count {
            let section = sections[sectionIndex]
            if section.rowCount > 0 && section.rowsBottom > y {
                if y < section.rowsTop { return (sectionIndex, 0) }
                if let row = row(in: sectionIndex, at: y) { return (sectionIndex, row) }
            }
            sectionIndex += 1
        }
        return nil
    }

    /// Changes one row's height and moves everything below it.
    mutating func setHeight(_ height: CGFloat, section: Int, row: Int) {
        let delta = height - (sections[section].rowTops[row + 1] - sections[section].rowTops[row])
        guard delta != 0 else { return }
        sections[section].rowTops.withUnsafeMutableBufferPointer { tops in
            for index in (row + 1)..<tops.count { tops[index] += delta }
        }
        var next = section + 1
        while next < sections.count {
            sections[next].top += delta
            sections[next].rowTops.withUnsafeMutableBufferPointer { tops in
                for index in tops.indices { tops[index] += delta }
            }
            next += 1
        }
        self.height += delta
    }
}
