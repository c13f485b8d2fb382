"""The demo shop's products as reply text: a search's hits and one product's stock."""

from __future__ import annotations

from typing import Any

from helpdesk.graph.replies import Writer
from helpdesk.packs.shop.reply_data import as_list, as_str, date_text, money, need, product_name

__all__ = ["products_text", "stock_text"]


def products_text(w: Writer, data: dict[str, Any], query: str, *, part: str = "") -> str:
    """The products found for ``query``; ``part``: the customer's question they were looked
    up for (no template read it), which the reply says it can answer only from the catalogue."""
    products = as_list(data.get("products"))[:5]
    if not products:
        return w.say("products_none", query=query)
    header = (
        w.say("products_part_header", part=part) if part else w.say("products_header", query=query)
    )
    lines = [header]
    for product in products:
        restock = as_str(product.get("restock_date"))
        key = "product_in_stock" if product.get("in_stock") else "product_out_of_stock"
        if not product.get("in_stock") and restock:
            key = "product_restock_passed" if product.get("restock_passed") else "product_restock"
        lines.append(
            w.say(
                key,
                name=product_name(w, product),
                sku=as_str(product.get("sku")),
                price=money(product.get("price")),
                date=restock,
            )
        )
    named = [p for p in products if p.get("named")]
    single = named[0] if len(named) == 1 else products[0] if len(products) == 1 else None
    stocked = _warehouse_counts(w, single) if single is not None else []
    if stocked:
        # one product named: how many each warehouse has, no code to ask for
        lines.append(w.say("stock_warehouses", warehouses=w.t["list_separator"].join(stocked)))
    else:
        lines.append(w.say("products_pick", sku=as_str(products[0].get("sku"))))
    return "\n".join(lines)


def _warehouse_counts(w: Writer, product: dict[str, Any]) -> list[str]:
    return [
        w.say("stock_warehouse", warehouse=_warehouse(w, wh), available=wh.get("available"))
        for wh in as_list(product.get("warehouses"))
        if int(wh.get("available") or 0) > 0
    ]


def stock_text(w: Writer, data: dict[str, Any], quantity: int | None) -> str:
    sku = need(as_str(data["sku"]))
    total = int(data["total_available"])
    name = product_name(w, data)
    lines: list[str] = []
    if total > 0 and (quantity is None or quantity <= total):
        lines.append(
            w.say(
                "stock_available",
                name=name,
                sku=sku,
                total=total,
                price=money(data.get("price", 0)),
            )
        )
        counts = _warehouse_counts(w, data)
        if counts:
            lines.append(w.say("stock_warehouses", warehouses=w.t["list_separator"].join(counts)))
        if quantity is not None:
            lines.append(w.say("stock_enough", quantity=quantity))
        return "\n".join(lines)
    if total > 0 and quantity is not None:
        lines.append(w.say("stock_not_enough", name=name, sku=sku, total=total, quantity=quantity))
    else:
        lines.append(w.say("stock_out", name=name, sku=sku))
    if data.get("restock_date"):
        # a planned date that has passed is said to have passed, never as an expectation
        key = "stock_restock_passed" if data.get("restock_passed") else "stock_restock"
        lines.append(w.say(key, restock_date=date_text(data["restock_date"])))
    else:
        lines.append(w.say("stock_no_restock"))
    return "\n".join(lines)


def _warehouse(w: Writer, record: dict[str, Any]) -> str:
    code = as_str(record.get("warehouse"))
    key = f"warehouse_{code}"
    if key in w.t:
        return w.t[key]
    return w.say("warehouse_other", city=as_str(record.get("city")) or code)
