#!/usr/bin/python3
"""Makes and edits real Office documents for the benchmark's incremental-transfer scenario (scripts/bench.py,
`office_documents`), with the libraries issue 25 names, from Debian's packages: python3-docx (.docx),
python3-openpyxl with python3-pil (.xlsx) and LibreOffice headless (.pptx). Each document holds IMAGES pictures of
seeded random pixels (about 1 MiB each, which deflate cannot shrink), so IMAGES sets its size.

    scripts/office-document.py make KIND PATH IMAGES   writes a new document
    scripts/office-document.py edit KIND PATH IMAGES [TEXT]
                                                      changes one paragraph (docx), cell (xlsx) or slide (pptx), to
                                                      TEXT when given (the version-growth benchmark's 50 edits)
"""
import base64
import os
import random
import shutil
import struct
import subprocess
import sys
import zlib


def noise_png(path, seed, height=341, width=1024):
    """An RGB PNG of seeded random pixels (about 1 MiB at the default size)."""
    rng = random.Random(seed)
    raw = b"".join(b"\0" + rng.randbytes(width * 3) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
    return path


EDITED = "This paragraph was edited after the first upload."


def docx_document(path, pictures, edited, text=EDITED):
    import docx
    if edited:
        document = docx.Document(path)
        document.paragraphs[1].text = text
    else:
        document = docx.Document()
        document.add_heading("Incremental transfer", 0)
        for i, picture in enumerate(pictures):
            document.add_paragraph(f"Paragraph {i}: the text around picture {i}.")
            document.add_picture(picture, width=docx.shared.Inches(6))
    document.save(path)


def xlsx_document(path, pictures, edited, text=EDITED):
    import openpyxl
    from openpyxl.drawing.image import Image
    if edited:
        book = openpyxl.load_workbook(path)
        book.active["B2"] = text
    else:
        book = openpyxl.Workbook()
        sheet = book.active
        for row in range(1, 500):
            sheet.append([row, f"row {row}", row * 1.5])
        for i, picture in enumerate(pictures):
            sheet.add_image(Image(picture), f"E{1 + 20 * i}")
    book.save(path)


def pptx_document(path, pictures, edited, text=EDITED):
    """One slide per picture, written as a flat ODF presentation and converted by LibreOffice; the edit changes
    the text of slide 2 and converts again."""
    work = os.path.dirname(os.path.abspath(path))
    slides = []
    for i, picture in enumerate(pictures):
        with open(picture, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        caption = text if edited and i == 1 else f"Slide {i + 1}"
        slides.append(
            f'<draw:page draw:name="page{i + 1}" draw:master-page-name="Default">'
            f'<draw:frame svg:x="1cm" svg:y="1cm" svg:width="20cm" svg:height="2cm"><draw:text-box>'
            f'<text:p>{caption}</text:p></draw:text-box></draw:frame>'
            f'<draw:frame svg:x="1cm" svg:y="4cm" svg:width="20cm" svg:height="6.7cm"><draw:image>'
            f'<office:binary-data>{data}</office:binary-data></draw:image></draw:frame></draw:page>')
    source = os.path.join(work, "deck.fodp")
    with open(source, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>'
                '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
                'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
                'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
                'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
                'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
                'office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">'
                '<office:master-styles><style:master-page style:name="Default"/></office:master-styles>'
                '<office:body><office:presentation>' + "".join(slides)
                + '</office:presentation></office:body></office:document>')
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        sys.exit("LibreOffice is missing; run scripts/install-deps.sh --test")
    profile = os.path.join(work, "libreoffice-profile")
    subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "pptx",
                    "--outdir", work, source], check=True, capture_output=True, timeout=300)
    os.replace(os.path.join(work, "deck.pptx"), path)


def main():
    if len(sys.argv) not in (5, 6) or sys.argv[1] not in ("make", "edit") or sys.argv[2] not in ("docx", "xlsx", "pptx"):
        sys.exit(__doc__)
    action, kind, path, images = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    text = sys.argv[5] if len(sys.argv) == 6 else EDITED
    work = os.path.dirname(os.path.abspath(path))
    # An edit of a .docx or .xlsx opens the document and needs no pictures; a .pptx is written again from them.
    needed = action == "make" or kind == "pptx"
    pictures = [noise_png(os.path.join(work, f"picture{i}.png"), i) for i in range(images)] if needed else []
    {"docx": docx_document, "xlsx": xlsx_document, "pptx": pptx_document}[kind](
        path, pictures, action == "edit", text)


if __name__ == "__main__":
    main()
