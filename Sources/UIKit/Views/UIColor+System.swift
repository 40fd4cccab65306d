// UIKit's system palette and semantic ("UI element") colours, with the
// values iOS 15 to 17 give them in light mode at the default contrast.
// iOS resolves each of these against a trait collection (dark mode,
// increased contrast, elevated); there is no dark mode here, so each is
// the one light value.
//
// Where the values come from: Apple's Human Interface Guidelines, Color,
// the "System colors" table (light, default contrast) for the palette and
// the greys, and UIKit's light-mode resolutions of the semantic colours as
// listed in the tables published with Apple's iOS 13 dark-mode session
// (reproduced, for instance, in the gists "iOS UIColor for the System UI
// theme specification" and CreatureSurvive's "Color Name | Light Color |
// Dark Color" table, and in Flutter's `CupertinoColors`, which mirrors
// UIKit's). iOS 15 moved systemTeal from #5AC8FA to #30B0C7 and added
// systemMint and systemCyan; these are the iOS 15 to 17 values. (The
// guidelines of June 2025 changed the palette again for iOS 26; these are
// not those.)

extension UIColor {
    /// A colour from 8-bit sRGB components written as one hex number
    /// (`0xRRGGBB`), as Apple's tables give them.
    convenience init(rgb: UInt32, alpha: CGFloat = 1) {
        self.init(red: CGFloat((rgb >> 16) & 0xFF) / 255,
                  green: CGFloat((rgb >> 8) & 0xFF) / 255,
                  blue: CGFloat(rgb & 0xFF) / 255,
                  alpha: alpha)
    }

    // MARK: The palette

    /// #FF3B30.
    public static let systemRed = UIColor(rgb: 0xFF3B30)
    /// #FF9500.
    public static let systemOrange = UIColor(rgb: 0xFF9500)
    /// #FFCC00.
    public static let systemYellow = UIColor(rgb: 0xFFCC00)
    /// #34C759; a switch's "on" track.
    public static let systemGreen = UIColor(rgb: 0x34C759)
    /// #00C7BE (iOS 15 and later).
    public static let systemMint = UIColor(rgb: 0x00C7BE)
    /// #30B0C7 (iOS 15 and later; #5AC8FA before).
    public static let systemTeal = UIColor(rgb: 0x30B0C7)
    /// #32ADE6 (iOS 15 and later).
    public static let systemCyan = UIColor(rgb: 0x32ADE6)
    /// #007AFF; the default tint.
    public static let systemBlue = UIColor(rgb: 0x007AFF)
    /// #5856D6.
    public static let systemIndigo = UIColor(rgb: 0x5856D6)
    /// #AF52DE.
    public static let systemPurple = UIColor(rgb: 0xAF52DE)
    /// #FF2D55.
    public static let systemPink = UIColor(rgb: 0xFF2D55)
    /// #A2845E.
    public static let systemBrown = UIColor(rgb: 0xA2845E)

    // MARK: Greys, from the darkest to the lightest

    /// #8E8E93.
    public static let systemGray = UIColor(rgb: 0x8E8E93)
    /// #AEAEB2.
    public static let systemGray2 = UIColor(rgb: 0xAEAEB2)
    /// #C7C7CC.
    public static let systemGray3 = UIColor(rgb: 0xC7C7CC)
    /// #D1D1D6.
    public static let systemGray4 = UIColor(rgb: 0xD1D1D6)
    /// #E5E5EA.
    public static let systemGray5 = UIColor(rgb: 0xE5E5EA)
    /// #F2F2F7.
    public static let systemGray6 = UIColor(rgb: 0xF2F2F7)

    // MARK: Text

    /// Text of the first rank: black.
    public static let label = UIColor(rgb: 0x000000)
    /// Text of the second rank: #3C3C43 at 60 %.
    public static let secondaryLabel = UIColor(rgb: 0x3C3C43, alpha: 0.6)
    /// Text of the third rank: placeholders, disabled titles (#3C3C43 at 30 %).
    public static let tertiaryLabel = UIColor(rgb: 0x3C3C43, alpha: 0.3)
    /// Text of the fourth rank: watermarks (#3C3C43 at 18 %).
    public static let quaternaryLabel = UIColor(rgb: 0x3C3C43, alpha: 0.18)
    /// A text field's placeholder: #3C3C43 at 30 %, as ``tertiaryLabel``.
    public static let placeholderText = UIColor(rgb: 0x3C3C43, alpha: 0.3)
    /// Links in text: #007AFF, as ``systemBlue``.
    public static let link = UIColor(rgb: 0x007AFF)

    // MARK: Backgrounds

    /// The background of a plain screen: white.
    public static let systemBackground = UIColor(rgb: 0xFFFFFF)
    /// Content on ``systemBackground``: #F2F2F7.
    public static let secondarySystemBackground = UIColor(rgb: 0xF2F2F7)
    /// Content on ``secondarySystemBackground``: white.
    public static let tertiarySystemBackground = UIColor(rgb: 0xFFFFFF)
    /// The background of a grouped table: #F2F2F7.
    public static let systemGroupedBackground = UIColor(rgb: 0xF2F2F7)
    /// A grouped table's cells: white.
    public static let secondarySystemGroupedBackground = UIColor(rgb: 0xFFFFFF)
    /// Content inside a grouped table's cells: #F2F2F7.
    public static let tertiarySystemGroupedBackground = UIColor(rgb: 0xF2F2F7)

    // MARK: Separators

    /// A thin line that lets what is under it show: #3C3C43 at 29 %.
    public static let separator = UIColor(rgb: 0x3C3C43, alpha: 0.29)
    /// A thin line that hides what is under it: #C6C6C8.
    public static let opaqueSeparator = UIColor(rgb: 0xC6C6C8)

    // MARK: Fills, over a background

    /// For thin, small shapes, such as a slider's empty track: #787880 at 20 %.
    public static let systemFill = UIColor(rgb: 0x787880, alpha: 0.2)
    /// For medium shapes, such as a switch's "off" track: #787880 at 16 %.
    public static let secondarySystemFill = UIColor(rgb: 0x787880, alpha: 0.16)
    /// For large shapes, such as a search field or a segmented control's
    /// track: #767680 at 12 %.
    public static let tertiarySystemFill = UIColor(rgb: 0x767680, alpha: 0.12)
    /// For large areas with complex content: #747480 at 8 %.
    public static let quaternarySystemFill = UIColor(rgb: 0x747480, alpha: 0.08)

    // MARK: Tint

    /// The tint. On iOS 15 and later this colour resolves, wherever it is
    /// used, to the tint of the view using it; colours here are fixed
    /// values, so it is the default tint, ``systemBlue``. To follow a
    /// view's tint, use that view's `tintColor`.
    public static let tintColor = UIColor(rgb: 0x007AFF)
}
