/// The pictures `openuikit render` draws without a scene file: the seed
/// scenarios' hierarchies, each with its frames as the scenario gives them,
/// and a demo screen of controls and a list. They are scene files like any
/// other (`openuikit render --print NAME` shows one), so each is also an
/// example of the format.
enum BuiltInScenes {
    struct Entry {
        let name: String
        let summary: String
        let json: String
    }

    static func named(_ name: String) -> Entry? { all.first { $0.name == name } }

    static let all: [Entry] = [
        Entry(name: "demo", summary: "a settings screen: buttons, a switch, a slider and a list in a scroll view", json: demo),
        Entry(name: "seed-a-nested-views", summary: "scenario A: the controller's view, grey and red nested in it", json: nestedViews),
        Entry(name: "seed-b-traced-hierarchy", summary: "scenario B: light grey with red and green in it, then yellow", json: tracedHierarchy),
        Entry(name: "seed-c-apples-example", summary: "scenario C: A with B (D in it) and C (E and F in it)", json: applesExample),
        Entry(name: "seed-d-override-in-parent", summary: "scenario D: white with red, then green over it", json: overrideInParent),
        Entry(name: "seed-e-out-of-bounds-child", summary: "scenario E: a child sticking out of its parent", json: outOfBoundsChild),
        Entry(name: "seed-f-popup", summary: "scenario F: a popup's content over a full-screen dimming view", json: popup),
        Entry(name: "seed-g-presented-controller", summary: "scenario G: a view behind a presented controller's view", json: presentedController),
        Entry(name: "seed-h-scroll-view-and-button", summary: "scenario H: a button in a scroll view", json: scrollViewAndButton),
    ]

    static let nestedViews = """
        {
          "size": [390, 844],
          "backgroundColor": "white",
          "views": [
            { "name": "grey", "frame": [100, 100, 100, 100], "backgroundColor": "gray",
              "subviews": [ { "name": "red", "frame": [10, 10, 30, 30], "backgroundColor": "red" } ] },
            { "type": "label", "frame": [20, 230, 350, 60], "numberOfLines": 2,
              "text": "A: tap red → red's touchesBegan; tap grey → grey's; elsewhere → the controller's",
              "font": { "size": 15 } }
          ]
        }
        """

    static let tracedHierarchy = """
        {
          "size": [390, 844],
          "views": [
            { "name": "light grey", "frame": [33, 147, 240, 128], "backgroundColor": "lightGray",
              "subviews": [
                { "name": "red", "frame": [0, 0, 196, 100], "backgroundColor": "red" },
                { "name": "green", "frame": [138, 57, 94, 63], "backgroundColor": "green" }
              ] },
            { "name": "yellow", "frame": [33, 303, 240, 128], "backgroundColor": "yellow" },
            { "name": "the tap", "frame": [51.67, 162, 10, 10], "cornerRadius": 5, "backgroundColor": "#000000",
              "borderWidth": 2, "borderColor": "white" },
            { "type": "label", "frame": [20, 460, 350, 60], "numberOfLines": 2, "font": { "size": 15 },
              "text": "B: a tap at (56.67, 167) asks yellow, light grey, green, then red, and red takes it" }
          ]
        }
        """

    static let applesExample = """
        {
          "size": [390, 844],
          "views": [
            { "name": "A", "frame": [20, 80, 350, 420], "backgroundColor": "#D0D4DA", "subviews": [
              { "type": "label", "frame": [10, 6, 100, 24], "text": "A", "font": { "size": 17, "weight": "bold" } },
              { "name": "B", "frame": [15, 40, 150, 160], "backgroundColor": "#E74C3C", "subviews": [
                { "type": "label", "frame": [10, 6, 100, 24], "text": "B", "textColor": "white", "font": { "size": 17, "weight": "bold" } },
                { "name": "D", "frame": [20, 40, 110, 100], "backgroundColor": "#F39C12", "subviews": [
                  { "type": "label", "frame": [10, 6, 80, 24], "text": "D", "font": { "size": 17, "weight": "bold" } } ] } ] },
              { "name": "C", "frame": [180, 40, 155, 360], "backgroundColor": "#3498DB", "subviews": [
                { "type": "label", "frame": [10, 6, 100, 24], "text": "C", "textColor": "white", "font": { "size": 17, "weight": "bold" } },
                { "name": "E", "frame": [15, 40, 125, 140], "backgroundColor": "#2ECC71", "subviews": [
                  { "type": "label", "frame": [10, 6, 80, 24], "text": "E", "font": { "size": 17, "weight": "bold" } } ] },
                { "name": "F", "frame": [15, 200, 125, 140], "backgroundColor": "#F1C40F", "subviews": [
                  { "type": "label", "frame": [10, 6, 80, 24], "text": "F", "font": { "size": 17, "weight": "bold" } } ] } ] }
            ] },
            { "type": "label", "frame": [20, 520, 350, 60], "numberOfLines": 2, "font": { "size": 15 },
              "text": "C: a touch in E visits A, C, F, then E; B is never asked" }
          ]
        }
        """

    static let overrideInParent = """
        {
          "size": [390, 844],
          "backgroundColor": "#EEEEEE",
          "views": [
            { "name": "white", "frame": [45, 120, 300, 300], "backgroundColor": "white",
              "borderWidth": 1, "borderColor": "#999999", "subviews": [
                { "name": "red", "frame": [30, 30, 160, 160], "backgroundColor": "red" },
                { "name": "green", "frame": [110, 110, 160, 160], "backgroundColor": "green" }
              ] },
            { "type": "label", "frame": [20, 450, 350, 60], "numberOfLines": 2, "font": { "size": 15 },
              "text": "D: white's hitTest returns red for every point inside white" }
          ]
        }
        """

    static let outOfBoundsChild = """
        {
          "size": [390, 844],
          "views": [
            { "name": "parent", "frame": [60, 150, 200, 200], "backgroundColor": "#3498DB", "subviews": [
              { "name": "child", "frame": [140, 140, 120, 120], "backgroundColor": "#E67E22", "alpha": 0.9 } ] },
            { "type": "label", "frame": [20, 450, 350, 60], "numberOfLines": 2, "font": { "size": 15 },
              "text": "E: the child is drawn outside its parent, and hit there only if the parent asks it" }
          ]
        }
        """

    static let popup = """
        {
          "size": [390, 844],
          "views": [
            { "type": "label", "frame": [20, 80, 350, 40], "text": "Content behind", "font": { "textStyle": "title2" } },
            { "name": "dimming", "frame": [0, 0, 390, 844], "backgroundColor": "#00000066", "subviews": [
              { "name": "content", "frame": [45, 280, 300, 200], "backgroundColor": "white", "cornerRadius": 14,
                "shadow": { "opacity": 0.3, "radius": 12, "offset": [0, 6] }, "subviews": [
                  { "type": "label", "frame": [20, 20, 260, 30], "text": "A popup", "font": { "textStyle": "headline" } },
                  { "type": "label", "frame": [20, 56, 260, 60], "numberOfLines": 2, "font": { "size": 15 },
                    "text": "A tap outside the content dismisses it." },
                  { "type": "button", "frame": [20, 140, 260, 44], "title": "OK", "titleColor": "white", "backgroundColor": "#007AFF", "cornerRadius": 10 } ] } ] }
          ]
        }
        """

    static let presentedController = """
        {
          "size": [390, 844],
          "backgroundColor": "black",
          "views": [
            { "name": "presenting", "frame": [0, 0, 390, 844], "backgroundColor": "#F2F2F7", "subviews": [
              { "name": "background view", "frame": [20, 40, 350, 200], "backgroundColor": "#34C759", "cornerRadius": 10 } ] },
            { "name": "presented", "frame": [0, 120, 390, 724], "backgroundColor": "white", "cornerRadius": 12,
              "maskedCorners": ["topLeft", "topRight"], "shadow": { "opacity": 0.25, "radius": 10, "offset": [0, -2] }, "subviews": [
                { "type": "label", "frame": [20, 24, 350, 30], "text": "Presented", "font": { "textStyle": "title2" } } ] }
          ]
        }
        """

    static let scrollViewAndButton = """
        {
          "size": [390, 844],
          "views": [
            { "type": "scrollView", "frame": [0, 0, 390, 844], "contentSize": [390, 2000], "contentOffset": [0, 120],
              "backgroundColor": "#F2F2F7", "subviews": [
                { "frame": [16, 140, 358, 300], "backgroundColor": "white", "cornerRadius": 10 },
                { "type": "button", "frame": [40, 240, 310, 50], "title": "Button in a scroll view",
                  "titleColor": "white", "backgroundColor": "#007AFF", "cornerRadius": 10 },
                { "frame": [16, 460, 358, 500], "backgroundColor": "white", "cornerRadius": 10 }
              ] }
          ]
        }
        """

    /// The demo screen: a header, a card of controls, and a list scrolled a
    /// little, clipped by its scroll view.
    static let demo = """
        {
          "size": [390, 844],
          "backgroundColor": "#F2F2F7",
          "views": [
            { "type": "label", "frame": [20, 54, 350, 41], "text": "Settings", "font": { "textStyle": "largeTitle" } },
            { "name": "controls", "frame": [16, 110, 358, 190], "backgroundColor": "white", "cornerRadius": 12,
              "shadow": { "opacity": 0.12, "radius": 6, "offset": [0, 2] }, "subviews": [
                { "type": "label", "frame": [16, 16, 220, 31], "text": "Wi-Fi", "font": { "textStyle": "body" } },
                { "type": "switch", "frame": [291, 16, 51, 31], "on": true },
                { "frame": [16, 60, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 72, 220, 22], "text": "Brightness", "font": { "textStyle": "body" } },
                { "type": "slider", "frame": [16, 100, 326, 31], "value": 0.65 },
                { "type": "button", "frame": [16, 140, 160, 36], "title": "Cancel", "backgroundColor": "#E5E5EA", "cornerRadius": 8 },
                { "type": "button", "frame": [182, 140, 160, 36], "title": "Save", "titleColor": "white", "backgroundColor": "#007AFF", "cornerRadius": 8 }
              ] },
            { "type": "label", "frame": [32, 316, 326, 18], "text": "RECENT", "textColor": "#6D6D72", "font": { "textStyle": "footnote" } },
            { "type": "scrollView", "frame": [16, 340, 358, 470], "contentSize": [358, 1100], "contentOffset": [0, 22],
              "backgroundColor": "white", "cornerRadius": 12, "clipsToBounds": true, "subviews": [
                { "type": "label", "frame": [16, 0, 326, 44], "text": "Row 1 — Inbox" },
                { "frame": [16, 44, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 44, 326, 44], "text": "Row 2 — Drafts" },
                { "frame": [16, 88, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 88, 326, 44], "text": "Row 3 — Sent" },
                { "frame": [16, 132, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 132, 326, 44], "text": "Row 4 — Archive" },
                { "frame": [16, 176, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 176, 326, 44], "text": "Row 5 — Ωμέγα, Жизнь, naïve café" },
                { "frame": [16, 220, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 220, 326, 44], "text": "Row 6 — Photos" },
                { "frame": [16, 264, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 264, 326, 44], "text": "Row 7 — Music" },
                { "frame": [16, 308, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 308, 326, 44], "text": "Row 8 — Notes" },
                { "frame": [16, 352, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 352, 326, 44], "text": "Row 9 — Calendar" },
                { "frame": [16, 396, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 396, 326, 44], "text": "Row 10 — Reminders" },
                { "frame": [16, 440, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 440, 326, 44], "text": "Row 11 — Weather" },
                { "frame": [16, 484, 342, 0.5], "backgroundColor": "#C6C6C8" },
                { "type": "label", "frame": [16, 484, 326, 44], "text": "Row 12 — Maps" }
              ] }
          ]
        }
        """
}
