"""Browser contexts and page states the tests share (not a test module)."""

# A page at rest: its script has stopped, and the width probe (gaussmech_ui.page_kit.watch_screen_width)
# has seen that the page on screen was drawn for this window's width, so no rerun for it is on its way.
IDLE = 'html[data-gaussmech-layout="settled"] [data-testid="stApp"][data-test-script-state="notRunning"]'

# An iPhone 13's browser (Playwright's descriptor): its user agent says "Mobile", so the page lays its
# charts out for a phone (gaussmech_ui.page_kit.on_phone).
PHONE = {
    "user_agent": (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        "Version/15.0 Mobile/15E148 Safari/604.1"
    ),
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
