"""The denoising lab in a real browser: upload a CSV, see what was read and the release; a bad file gets a message.

Selectors are the stable ones of DESIGN.md section 4 (``.st-key-<key>``, the app's idle state).
"""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.devices import IDLE

PAGE_PATH = "/Denoising_lab"


def _choose_file(page, name: str, content: bytes) -> None:
    page.locator('.st-key-denoising_upload input[type="file"]').set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": content}]
    )


def test_uploading_a_histogram_releases_and_denoises_it(page, app_url):
    page.goto(f"{app_url}{PAGE_PATH}")
    page.locator(IDLE).wait_for(state="attached")
    expect(page.get_by_role("heading", name="The denoising lab")).to_be_visible()
    page.locator(".st-key-denoising_data").get_by_role("radio", name="Upload a CSV").click()
    expect(page.locator('[data-testid="stAlert"]').filter(has_text="never written to disk")).to_be_visible()
    assert "denoising_data=Upload" in page.url, "the data source is part of the shareable link"

    _choose_file(page, "counts.csv", b"label,count\n=1+1,3\nb,0\nc,12\nd,5\ne,0\n")
    expect(page.locator('[data-testid="stAlert"]').filter(has_text="Read 5 rows: 5 bins, total 20.")).to_be_visible()
    comparison = page.locator(".st-key-denoising_comparison_chart")
    expect(comparison).to_contain_text("True counts (shown only in this teaching lab)")
    expect(page.locator(".st-key-denoising_sweep_chart")).to_contain_text("MSE against ε")
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)

    _choose_file(page, "broken.csv", b"label,count\na,1\nb\nc,3,4,5\n")
    error = page.locator('[data-testid="stAlertContentError"]')
    expect(error).to_contain_text("Could not read broken.csv")
    expect(error).to_contain_text("line 3")
    expect(page.locator(".st-key-denoising_comparison_chart")).to_have_count(0)
    expect(page.locator('[data-testid="stException"]')).to_have_count(0)
