"""Fixed reference data of the demo shop: products, warehouses, cities, carriers, names, FAQ.

Everything here is constant; :mod:`helpdesk.tools.shop.seed` draws from it with a seeded
``random.Random`` to build customers, orders and logistics. FAQ answers are real policy text the
bot can quote (7-day no-reason returns, 1-3 / 3-5 day delivery, 1-7 business-day refunds, ...).

Over 400 lines on purpose: it is reference data (products, warehouses, cities, carriers, names, FAQ
text), not logic.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "CARRIERS",
    "CITIES",
    "EN_FIRST_NAMES",
    "EN_LAST_NAMES",
    "FAQ",
    "PIECE_ALIASES",
    "PRODUCTS",
    "SEARCH_ALIASES",
    "TIER1_CITIES",
    "WAREHOUSES",
    "ZH_GIVEN_NAMES",
    "ZH_SURNAMES",
    "Carrier",
    "FaqEntry",
    "Product",
    "Warehouse",
    "city_zh",
]


class Product(NamedTuple):
    """One catalog line; the SKU is assigned by position (``SKU-1001`` first)."""

    name: str
    name_zh: str
    category: str
    price_yuan: int


#: Words customers search with that a product's names lack, by English product name.
SEARCH_ALIASES: dict[str, tuple[str, ...]] = {
    "Wireless Noise-Cancelling Headphones": ("headphone", "headset", "earphone", "耳麦"),
    "True Wireless Earbuds": ("earphone", "earbud", "tws", "耳塞"),
    "Mini Bluetooth Speaker": ("音响", "喇叭"),
    "65W GaN Charger": ("charging", "adapter", "充电头", "快充"),
    "20000mAh Power Bank": ("powerbank", "battery", "充电宝"),
    "USB-C Cable 2m": ("type-c", "typec", "charging cable", "充电线"),
    "Smart Watch S3": ("smartwatch", "手表"),
    "Fitness Band 7": ("tracker", "手环"),
    "Smartphone X12 128GB": ("phone", "mobile", "手机"),
    "11-inch Tablet 256GB": ("ipad", "pad", "平板"),
    "E-book Reader": ("ebook", "e-reader", "ereader", "kindle", "阅读器", "电纸书"),
    "Clear Phone Case": ("cover", "手机套"),
    "Tempered Glass Screen Protector": ("screen protector", "钢化膜", "贴膜", "手机膜", "膜"),
    "Robot Vacuum Cleaner": ("hoover", "扫地机", "吸尘器"),
    "Non-stick Frying Pan 28cm": ("nonstick", "pan", "不粘锅", "平底锅"),
    "Stainless Steel Thermos 500ml": ("flask", "water bottle", "水杯", "soup", "keep hot", "汤"),
    "Cotton T-shirt (3-pack)": ("tshirt", "tee", "t恤", "短袖"),
    "Slim Fit Jeans": ("denim", "pants", "裤子"),
    "Running Shoes": ("sneakers", "trainers", "运动鞋", "runner", "marathon", "跑马拉松", "跑步"),
    "Canvas Sneakers": ("shoes", "trainers", "球鞋"),
    "Waterproof Hiking Jacket": ("raincoat", "outdoor jacket", "户外外套"),
    "Men's Down Jacket": ("puffer", "parka", "coat", "棉服"),
    "Women's Down Jacket": ("puffer", "parka", "coat", "棉服"),
    "Cashmere Sweater": ("jumper", "pullover", "毛衣"),
    "Silk Pajama Set": ("pyjamas", "pyjama", "pajamas", "pjs", "睡衣"),
    "Humidifier 4L": ("dry air", "dry", "干燥"),
    "Handheld Garment Steamer": ("wrinkles", "ironing", "iron", "熨衣服", "皱"),
    "Winter Down Duvet": ("blanket", "quilt", "sleep under", "被子"),
    "Touchscreen Gloves": ("手套",),
    "Smart Desk Lamp": ("reading lamp", "reading light", "看书", "读书灯"),
    "Electric Kettle 1.7L": ("boil water", "烧水"),
    "Blackout Curtains": ("block light", "挡光"),
    "Knit Beanie": ("warm hat", "hat", "帽子"),
    "Thermal Underwear Set": ("long johns", "thermals", "保暖衣"),
    "Hooded Sweatshirt": ("hoodie", "卫衣"),
    "Yoga Leggings": ("yoga pants", "瑜伽服"),
    "8-inch Chef's Knife": ("kitchen knife", "菜刀"),
    "Wool Socks (5 pairs)": ("袜子",),
    "Scented Candle": ("蜡烛", "香薰"),
    "Rice Cooker 4L": ("电饭锅",),
    "Leather Belt": ("皮带",),
    "Wi-Fi 6 Router": ("wifi router", "wifi"),
    "Portable SSD 1TB": ("hard drive", "external drive"),
    "Cotton Bed Sheet Set (Queen)": ("bedding", "bed sheets", "床单"),
    "Bath Towel Set": ("towels",),
    "Backpack 25L": ("rucksack", "书包"),
}
PIECE_ALIASES: dict[str, tuple[str, ...]] = {
    "Ceramic Dinnerware Set (16 pcs)": ("plates", "bowls", "盘子", "碗碟"),
}
"""Names of the pieces of a set ("the plates" of the dinnerware set): a search finds the set by
them; a refund of "the plates" is of some of it, never of the whole item (asked how much)."""
for _name, _pieces in PIECE_ALIASES.items():
    SEARCH_ALIASES[_name] = (*SEARCH_ALIASES.get(_name, ()), *_pieces)


class Warehouse(NamedTuple):
    """A fulfilment warehouse."""

    code: str
    city: str
    city_zh: str


class Carrier(NamedTuple):
    """A parcel carrier; ``code`` prefixes its tracking numbers."""

    code: str
    name: str
    name_zh: str


class FaqEntry(NamedTuple):
    """One FAQ article in one language."""

    topic: str
    lang: str
    question: str
    answer: str
    keywords: str


PRODUCTS: tuple[Product, ...] = (
    # electronics
    Product("Wireless Noise-Cancelling Headphones", "无线降噪耳机", "electronics", 899),
    Product("True Wireless Earbuds", "真无线蓝牙耳机", "electronics", 399),
    Product("Mini Bluetooth Speaker", "迷你蓝牙音箱", "electronics", 199),
    Product("65W GaN Charger", "65W 氮化镓充电器", "electronics", 129),
    Product("20000mAh Power Bank", "20000毫安移动电源", "electronics", 159),
    Product("USB-C Cable 2m", "USB-C 数据线 2米", "electronics", 39),
    Product("Smart Watch S3", "智能手表 S3", "electronics", 1299),
    Product("Fitness Band 7", "运动手环 7", "electronics", 249),
    Product("Mechanical Keyboard (Brown Switches)", "机械键盘（茶轴）", "electronics", 459),
    Product("Wireless Mouse", "无线鼠标", "electronics", 99),
    Product("27-inch 4K Monitor", "27英寸 4K 显示器", "electronics", 2199),
    Product("Portable SSD 1TB", "1TB 移动固态硬盘", "electronics", 599),
    Product("1080p Webcam", "1080p 高清摄像头", "electronics", 269),
    Product("Smartphone X12 128GB", "X12 智能手机 128GB", "electronics", 2999),
    Product("11-inch Tablet 256GB", "11英寸平板电脑 256GB", "electronics", 2499),
    Product("E-book Reader", "电子书阅读器", "electronics", 899),
    Product("Smart Desk Lamp", "智能台灯", "electronics", 229),
    Product("Wi-Fi 6 Router", "Wi-Fi 6 无线路由器", "electronics", 349),
    Product("4K Action Camera", "4K 运动相机", "electronics", 1599),
    Product("Clear Phone Case", "透明手机壳", "electronics", 49),
    Product("Tempered Glass Screen Protector", "钢化玻璃膜", "electronics", 29),
    Product("Wireless Charging Pad", "无线充电板", "electronics", 119),
    Product("Smart Plug (2-pack)", "智能插座（两只装）", "electronics", 89),
    Product("Electric Toothbrush", "电动牙刷", "electronics", 299),
    # home
    Product("Stainless Steel Thermos 500ml", "不锈钢保温杯 500ml", "home", 129),
    Product("Non-stick Frying Pan 28cm", "不粘煎锅 28cm", "home", 189),
    Product("Rice Cooker 4L", "电饭煲 4L", "home", 459),
    Product("Air Fryer 5L", "空气炸锅 5L", "home", 399),
    Product("Electric Kettle 1.7L", "电热水壶 1.7L", "home", 149),
    Product("Memory Foam Pillow", "记忆棉枕头", "home", 159),
    Product("Cotton Bed Sheet Set (Queen)", "纯棉床上四件套（1.8米）", "home", 329),
    Product("Winter Down Duvet", "冬季羽绒被", "home", 899),
    Product("Robot Vacuum Cleaner", "扫地机器人", "home", 1999),
    Product("Air Purifier", "空气净化器", "home", 1299),
    Product("Humidifier 4L", "加湿器 4L", "home", 199),
    Product("Bath Towel Set", "浴巾毛巾套装", "home", 99),
    Product("Ceramic Dinnerware Set (16 pcs)", "陶瓷餐具套装（16件）", "home", 269),
    Product("8-inch Chef's Knife", "8英寸主厨刀", "home", 219),
    Product("Storage Boxes (3-pack)", "收纳箱（三只装）", "home", 79),
    Product("LED Ceiling Light", "LED 吸顶灯", "home", 359),
    Product("Blackout Curtains", "遮光窗帘", "home", 239),
    Product("Drip Coffee Maker", "滴滤式咖啡机", "home", 699),
    Product("Handheld Garment Steamer", "手持挂烫机", "home", 169),
    Product("Laundry Detergent 3kg", "洗衣液 3kg", "home", 59),
    Product("Scented Candle", "香薰蜡烛", "home", 69),
    Product("Desk Organizer", "桌面收纳架", "home", 49),
    # clothing
    Product("Men's Down Jacket", "男士羽绒服", "clothing", 799),
    Product("Women's Down Jacket", "女士羽绒服", "clothing", 859),
    Product("Cashmere Sweater", "羊绒衫", "clothing", 699),
    Product("Merino Wool Scarf", "美利奴羊毛围巾", "clothing", 199),
    Product("Cotton T-shirt (3-pack)", "纯棉T恤（三件装）", "clothing", 129),
    Product("Slim Fit Jeans", "修身牛仔裤", "clothing", 259),
    Product("Running Shoes", "跑步鞋", "clothing", 499),
    Product("Canvas Sneakers", "帆布鞋", "clothing", 199),
    Product("Waterproof Hiking Jacket", "防水冲锋衣", "clothing", 599),
    Product("Thermal Underwear Set", "保暖内衣套装", "clothing", 159),
    Product("Wool Socks (5 pairs)", "羊毛袜（五双装）", "clothing", 89),
    Product("Leather Belt", "真皮腰带", "clothing", 159),
    Product("Baseball Cap", "棒球帽", "clothing", 79),
    Product("Silk Pajama Set", "真丝睡衣套装", "clothing", 459),
    Product("Yoga Leggings", "瑜伽裤", "clothing", 189),
    Product("Hooded Sweatshirt", "连帽卫衣", "clothing", 229),
    Product("Linen Shirt", "亚麻衬衫", "clothing", 269),
    Product("Knit Beanie", "针织毛线帽", "clothing", 69),
    Product("Touchscreen Gloves", "触屏手套", "clothing", 59),
    Product("Backpack 25L", "双肩背包 25L", "clothing", 299),
)

WAREHOUSES: tuple[Warehouse, ...] = (
    Warehouse("WH-SH", "Shanghai", "上海"),
    Warehouse("WH-BJ", "Beijing", "北京"),
    Warehouse("WH-GZ", "Guangzhou", "广州"),
    Warehouse("WH-CD", "Chengdu", "成都"),
)

CARRIERS: tuple[Carrier, ...] = (
    Carrier("SF", "SF Express", "顺丰速运"),
    Carrier("YT", "YTO Express", "圆通速递"),
)

TIER1_CITIES = frozenset({"Shanghai", "Beijing", "Guangzhou", "Shenzhen"})

CITIES: tuple[tuple[str, str], ...] = (
    ("Shanghai", "上海"),
    ("Beijing", "北京"),
    ("Guangzhou", "广州"),
    ("Shenzhen", "深圳"),
    ("Hangzhou", "杭州"),
    ("Chengdu", "成都"),
    ("Wuhan", "武汉"),
    ("Nanjing", "南京"),
    ("Xi'an", "西安"),
    ("Chongqing", "重庆"),
    ("Suzhou", "苏州"),
    ("Tianjin", "天津"),
    ("Changsha", "长沙"),
    ("Xiamen", "厦门"),
    ("Kunming", "昆明"),
)

_CITY_ZH = dict(CITIES)


def city_zh(city: str) -> str:
    """The Chinese name of a known city (the English name when unknown)."""
    return _CITY_ZH.get(city, city)


ZH_SURNAMES: tuple[tuple[str, str], ...] = (
    ("王", "wang"), ("李", "li"), ("张", "zhang"), ("刘", "liu"), ("陈", "chen"),
    ("杨", "yang"), ("黄", "huang"), ("赵", "zhao"), ("吴", "wu"), ("周", "zhou"),
    ("徐", "xu"), ("孙", "sun"), ("马", "ma"), ("朱", "zhu"), ("胡", "hu"),
    ("郭", "guo"), ("何", "he"), ("林", "lin"), ("高", "gao"), ("罗", "luo"),
)  # fmt: skip

ZH_GIVEN_NAMES: tuple[tuple[str, str], ...] = (
    ("伟", "wei"), ("芳", "fang"), ("娜", "na"), ("敏", "min"), ("静", "jing"),
    ("磊", "lei"), ("洋", "yang"), ("艳", "yan"), ("勇", "yong"), ("军", "jun"),
    ("杰", "jie"), ("涛", "tao"), ("明", "ming"), ("超", "chao"), ("秀英", "xiuying"),
    ("霞", "xia"), ("平", "ping"), ("刚", "gang"), ("子涵", "zihan"), ("浩然", "haoran"),
    ("雨萱", "yuxuan"), ("梓轩", "zixuan"), ("欣怡", "xinyi"), ("宇航", "yuhang"),
    ("思远", "siyuan"), ("佳怡", "jiayi"),
)  # fmt: skip

EN_FIRST_NAMES: tuple[str, ...] = (
    "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "David",
    "Elizabeth", "William", "Barbara", "Richard", "Susan", "Thomas", "Jessica", "Daniel",
    "Sarah", "Emma", "Oliver", "Sophia", "Lucas", "Mia", "Ethan", "Chloe", "Noah", "Grace",
    "Liam", "Hannah", "Leo",
)  # fmt: skip

EN_LAST_NAMES: tuple[str, ...] = (
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson",
    "Taylor", "Thomas", "Moore", "Martin", "Lee", "Walker", "Hall", "Young", "King", "Wright",
    "Scott", "Green", "Baker", "Adams", "Nelson", "Carter", "Mitchell",
)  # fmt: skip

FAQ: tuple[FaqEntry, ...] = (
    FaqEntry(
        "returns",
        "en",
        "What is your return policy?",
        "You can return most items within 7 days of delivery without giving a reason, as long "
        "as they are unused, in their original packaging and with tags attached. Personalised "
        "items, underwear, opened cosmetics and consumables are excluded. If the item is faulty, "
        "damaged or not as described we pay the return shipping; otherwise it is on you (free "
        "if you bought return-shipping insurance). Start a return from My Orders or ask us here; "
        "the refund is issued within 1-2 business days after the warehouse receives the item.",
        "return returns send back no reason 7 days 7-day",
    ),
    FaqEntry(
        "returns",
        "zh",
        "退货政策是什么？",
        "大部分商品支持签收之日起 7 天无理由退货，要求商品未使用、包装完整、吊牌齐全。"
        "定制商品、贴身衣物、已拆封的化妆品和消耗品不支持无理由退货。"
        "如商品存在质量问题、破损或与描述不符，退货运费由我们承担；否则运费由您承担"
        "（购买了运费险的可获得理赔）。您可以在“我的订单”中申请退货，或直接在这里告诉我们；"
        "仓库收到退货后 1-2 个工作日内发起退款。",
        "退货 退回 无理由 7天 七天 退换",
    ),
    FaqEntry(
        "delivery_times",
        "en",
        "How long does delivery take?",
        "Orders paid before 16:00 ship the same day, later ones the next day. Delivery takes "
        "1-3 days to tier-1 cities (Beijing, Shanghai, Guangzhou, Shenzhen) and 3-5 days "
        "elsewhere in mainland China; remote areas (Xinjiang, Tibet, Qinghai, Inner Mongolia) "
        "can take 5-7 days. We ship with SF Express and YTO Express, and the tracking number "
        "appears on your order as soon as the parcel is handed over.",
        "delivery shipping arrive how long days when tracking logistics",
    ),
    FaqEntry(
        "delivery_times",
        "zh",
        "多久能送到？",
        "16:00 前付款的订单当天发货，之后付款的次日发货。一线城市（北京、上海、广州、深圳）"
        "一般 1-3 天送达，其他地区 3-5 天，新疆、西藏、青海、内蒙古等偏远地区约 5-7 天。"
        "我们使用顺丰速运和圆通速递配送，包裹交接后订单中即可查看物流单号。",
        "配送 发货 送达 几天 多久 快递 物流 到货",
    ),
    FaqEntry(
        "refund_time",
        "en",
        "When will I get my refund?",
        "Once a refund is approved it goes back to the original payment method: Alipay and "
        "WeChat Pay usually within 1-3 business days, bank cards within 3-7 business days. "
        "Cancelling a paid order that has not shipped refunds the full amount automatically. "
        "If nothing has arrived after 7 business days, contact us with the refund id.",
        "refund money back when how long business days",
    ),
    FaqEntry(
        "refund_time",
        "zh",
        "退款多久到账？",
        "退款审核通过后原路退回：支付宝、微信支付一般 1-3 个工作日到账，"
        "银行卡 3-7 个工作日到账。已付款但未发货的订单取消后会自动全额退款。"
        "如超过 7 个工作日仍未到账，请提供退款单号联系我们。",
        "退款 到账 多久 几天 钱 退钱",
    ),
    FaqEntry(
        "invoice",
        "en",
        "How do I get an invoice?",
        "We issue electronic VAT general invoices (fapiao) within 1-3 business days after "
        "delivery; they are emailed to you and available under My Orders. For a company "
        "invoice, give the company name and taxpayer ID. Special VAT invoices are available to "
        "registered companies on request. You can request or correct an invoice within 180 days "
        "of delivery.",
        "invoice fapiao receipt vat tax company",
    ),
    FaqEntry(
        "invoice",
        "zh",
        "如何开发票？",
        "订单签收后 1-3 个工作日内开具增值税电子普通发票，发送到您的邮箱，"
        "也可以在“我的订单”中下载。"
        "开具单位发票请提供单位名称和纳税人识别号；企业可申请增值税专用发票。"
        "签收后 180 天内可以申请开票或修改发票信息。",
        "发票 开票 增值税 专票 普票 抬头 税号",
    ),
    FaqEntry(
        "warranty",
        "en",
        "What warranty do products have?",
        "Electronics and home appliances carry a 1-year warranty from the delivery date (some "
        "main components longer, see the product page). Under China's three guarantees a "
        "product with a performance fault can be returned within 7 days, exchanged within 15 "
        "days and repaired free of charge within the warranty period. Clothing with a quality "
        "problem can be returned or exchanged within 30 days. Keep your order number and send "
        "photos or a video of the fault.",
        "warranty guarantee repair broken faulty defect quality",
    ),
    FaqEntry(
        "warranty",
        "zh",
        "商品保修多久？",
        "电子产品和家用电器自签收之日起保修 1 年（部分主要部件更长，以商品页为准）。"
        "按照国家三包规定，出现性能故障的商品 7 天内可退货、15 天内可换货、保修期内免费维修。"
        "服装类商品如有质量问题，30 天内可退换。请保留订单号，并提供故障照片或视频。",
        "保修 质保 维修 坏了 故障 三包 质量问题",
    ),
    FaqEntry(
        "payment",
        "en",
        "Which payment methods do you accept?",
        "We accept Alipay, WeChat Pay, UnionPay debit and credit cards, and Visa / Mastercard. "
        "Orders over 600 CNY can be paid in 3, 6 or 12 instalments with Huabei. An unpaid order "
        "is kept for 24 hours and then cancelled automatically. Payments are processed by the "
        "payment provider; we never see or store your card number.",
        "payment pay alipay wechat card instalments unpaid",
    ),
    FaqEntry(
        "payment",
        "zh",
        "支持哪些付款方式？",
        "支持支付宝、微信支付、银联借记卡和信用卡以及 Visa / Mastercard。"
        "订单满 600 元可使用花呗分 3、6、12 期付款。未付款订单保留 24 小时，超时自动取消。"
        "支付由支付机构处理，我们不会查看或保存您的卡号。",
        "付款 支付 支付宝 微信 花呗 分期 信用卡 未付款",
    ),
    FaqEntry(
        "cancel_order",
        "en",
        "Can I cancel my order?",
        "You can cancel an order while it is pending payment or paid but not yet shipped; a paid "
        "order is refunded in full automatically. An order is cancelled as a whole: to keep "
        "some of its items, return the others after they arrive. Once it has shipped it can no "
        "longer be cancelled: refuse the delivery or return it within 7 days after it arrives.",
        "cancel cancellation order stop",
    ),
    FaqEntry(
        "cancel_order",
        "zh",
        "可以取消订单吗？",
        "待付款或已付款未发货的订单可以直接取消，已付款的订单会自动全额退款。"
        "订单只能整单取消：想留下其中部分商品，可在收货后把其余商品退货。"
        "订单发货后无法取消，您可以拒收，或签收后 7 天内申请退货。",
        "取消 取消订单 不要了",
    ),
    FaqEntry(
        "exchange",
        "en",
        "How do I exchange an item for another size or colour?",
        "Size or colour exchanges are possible within 7 days of delivery if the item is unused "
        "and the new size is in stock; faulty items can be exchanged within 15 days. Open an "
        "after-sales request and we send the replacement once the original is on its way back.",
        "exchange size colour color swap replace",
    ),
    FaqEntry(
        "exchange",
        "zh",
        "如何换货（换尺码或颜色）？",
        "签收后 7 天内，商品未使用且目标尺码有货即可换尺码或颜色；质量问题 15 天内可换货。"
        "请提交售后申请，原商品寄回后我们即安排发出新商品。",
        "换货 换尺码 换颜色 尺码 大小",
    ),
    FaqEntry(
        "shipping_fee",
        "en",
        "How much is shipping?",
        "Shipping is free on orders of 99 CNY or more; smaller orders pay a flat 10 CNY. Gold "
        "and platinum members get free SF Express delivery on every order.",
        "shipping fee cost free postage",
    ),
    FaqEntry(
        "shipping_fee",
        "zh",
        "运费怎么算？",
        "订单满 99 元包邮，不满 99 元收取 10 元运费。金卡和白金会员所有订单均享顺丰包邮。",
        "运费 邮费 包邮 快递费",
    ),
)
