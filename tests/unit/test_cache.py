import threading

import pytest

from helpdesk.degrade.cache import CachedValue, LastGoodCache
from helpdesk.degrade.clock import FakeClock


def _cache(maxsize: int = 100) -> tuple[LastGoodCache, FakeClock]:
    clock = FakeClock()
    return LastGoodCache(clock=clock, maxsize=maxsize), clock


def test_cache_rejects_bad_maxsize():
    with pytest.raises(ValueError, match="maxsize"):
        LastGoodCache(clock=FakeClock(), maxsize=0)


def test_cache_miss_returns_none():
    cache, _ = _cache()
    assert cache.get("order_status", {"order_id": "1"}, "c1") is None


def test_cache_hit_reports_value_and_age():
    cache, clock = _cache()
    cache.put("order_status", {"order_id": "1"}, "c1", {"status": "shipped"}, ttl_s=60)
    clock.advance(12.5)
    assert cache.get("order_status", {"order_id": "1"}, "c1") == CachedValue(
        value={"status": "shipped"}, stored_at=1_800_000_000.0, age_s=12.5
    )


def test_cache_expires_exactly_at_ttl():
    cache, clock = _cache()
    cache.put("check_stock", {"sku": "A"}, None, 3, ttl_s=30)
    clock.advance(29.999)
    assert cache.get("check_stock", {"sku": "A"}, None) is not None
    clock.advance(0.001)
    assert cache.get("check_stock", {"sku": "A"}, None) is None
    assert len(cache) == 0


def test_cache_ttl_is_per_tool():
    cache, clock = _cache()
    cache.put("check_stock", {"sku": "A"}, None, 3, ttl_s=10)
    cache.put("faq", {"q": "returns"}, None, "30 days", ttl_s=3600)
    clock.advance(10)
    assert cache.get("check_stock", {"sku": "A"}, None) is None
    hit = cache.get("faq", {"q": "returns"}, None)
    assert hit is not None
    assert (hit.value, hit.age_s) == ("30 days", 10.0)


@pytest.mark.parametrize("ttl", [0, -5])
def test_cache_non_positive_ttl_does_not_store(ttl):
    cache, _ = _cache()
    cache.put("order_status", {"order_id": "1"}, "c1", "x", ttl_s=ttl)
    assert cache.get("order_status", {"order_id": "1"}, "c1") is None
    assert len(cache) == 0


def test_cache_put_replaces_and_resets_age():
    cache, clock = _cache()
    cache.put("t", {}, None, "old", ttl_s=60)
    clock.advance(30)
    cache.put("t", {}, None, "new", ttl_s=60)
    clock.advance(5)
    assert cache.get("t", {}, None) == CachedValue("new", 1_800_000_030.0, 5.0)


def test_cache_key_ignores_arg_order():
    a = LastGoodCache.key("t", {"a": 1, "b": 2}, "c")
    b = LastGoodCache.key("t", {"b": 2, "a": 1}, "c")
    assert a == b


def test_cache_key_drops_none_args_and_strips_strings():
    assert LastGoodCache.key("t", {"q": "  Hello ", "page": None}, "c") == LastGoodCache.key(
        "t", {"q": "Hello"}, "c"
    )


def test_cache_key_keeps_case():
    assert LastGoodCache.key("t", {"q": "Hello"}, "c") != LastGoodCache.key(
        "t", {"q": "hello"}, "c"
    )


def test_cache_key_normalizes_nested_values():
    a = LastGoodCache.key("t", {"f": {"y": " 1 ", "x": None}, "l": [" a ", None]}, None)
    b = LastGoodCache.key("t", {"l": ["a", None], "f": {"y": "1"}}, None)
    assert a == b


def test_cache_key_exact_format():
    assert LastGoodCache.key("faq", {"q": " returns ", "x": None}, "c1") == (
        '{"args":{"q":"returns"},"customer":"c1","tool":"faq"}'
    )


def test_cache_normalized_lookup_hits():
    cache, _ = _cache()
    cache.put("search", {"q": " shoes", "page": 1, "sort": None}, "c1", ["s1"], ttl_s=60)
    hit = cache.get("search", {"page": 1, "q": "shoes "}, "c1")
    assert hit is not None
    assert hit.value == ["s1"]


def test_cache_customer_isolation():
    cache, _ = _cache()
    cache.put("list_orders", {}, "alice", ["A-1"], ttl_s=60)
    assert cache.get("list_orders", {}, "bob") is None
    assert cache.get("list_orders", {}, None) is None
    hit = cache.get("list_orders", {}, "alice")
    assert hit is not None
    assert hit.value == ["A-1"]


def test_cache_tool_isolation():
    cache, _ = _cache()
    cache.put("a", {"x": 1}, None, "A", ttl_s=60)
    assert cache.get("b", {"x": 1}, None) is None


def test_cache_maxsize_evicts_least_recently_used():
    cache, _ = _cache(maxsize=2)
    cache.put("t", {"k": 1}, None, 1, ttl_s=60)
    cache.put("t", {"k": 2}, None, 2, ttl_s=60)
    assert cache.get("t", {"k": 1}, None) is not None  # touch 1: 2 is now least recent
    cache.put("t", {"k": 3}, None, 3, ttl_s=60)
    assert cache.get("t", {"k": 2}, None) is None
    assert cache.get("t", {"k": 1}, None) is not None
    assert cache.get("t", {"k": 3}, None) is not None
    assert len(cache) == 2


def test_cache_invalidate_and_clear():
    cache, _ = _cache()
    cache.put("t", {"k": 1}, None, 1, ttl_s=60)
    cache.put("t", {"k": 2}, None, 2, ttl_s=60)
    cache.invalidate("t", {"k": 1}, None)
    cache.invalidate("t", {"k": 9}, None)
    assert cache.get("t", {"k": 1}, None) is None
    assert len(cache) == 1
    cache.clear()
    assert len(cache) == 0


def test_cache_stores_falsy_values():
    cache, _ = _cache()
    cache.put("t", {}, None, [], ttl_s=60)
    hit = cache.get("t", {}, None)
    assert hit is not None
    assert hit.value == []


def test_cache_thread_safe():
    cache, _ = _cache(maxsize=50)

    def worker(n: int) -> None:
        for i in range(200):
            cache.put("t", {"i": i % 80, "n": n}, None, i, ttl_s=60)
            cache.get("t", {"i": (i + 1) % 80, "n": n}, None)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 50
