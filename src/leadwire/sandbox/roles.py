"""Departments, seniority levels and job titles (English and Chinese) of sandbox people,
and the department mix each kind of company has."""

from __future__ import annotations

import random

from leadwire.taxonomy import SENIORITIES

RANK: dict[str, int] = {s: i for i, s in enumerate(SENIORITIES)}  # lower rank = more senior

# department -> (English label, Chinese label)
LABELS: dict[str, tuple[str, str]] = {
    "engineering": ("Engineering", "工程"),
    "sales": ("Sales", "销售"),
    "marketing": ("Marketing", "市场"),
    "finance": ("Finance", "财务"),
    "operations": ("Operations", "运营"),
    "hr": ("People", "人力资源"),
    "legal": ("Legal", "法务"),
    "product": ("Product", "产品"),
    "support": ("Customer Support", "客户服务"),
    "it": ("IT", "信息技术"),
    "procurement": ("Procurement", "采购"),
    "executive": ("Executive", "总裁办"),
}

# department -> (English, Chinese) chief titles
CHIEFS: dict[str, tuple[tuple[str, str], ...]] = {
    "engineering": (("Chief Technology Officer", "首席技术官"), ("CTO", "首席技术官")),
    "sales": (("Chief Revenue Officer", "首席营收官"), ("Chief Sales Officer", "首席销售官")),
    "marketing": (("Chief Marketing Officer", "首席营销官"), ("CMO", "首席营销官")),
    "finance": (("Chief Financial Officer", "首席财务官"), ("CFO", "首席财务官")),
    "operations": (("Chief Operating Officer", "首席运营官"), ("COO", "首席运营官")),
    "hr": (("Chief People Officer", "首席人才官"), ("Chief Human Resources Officer", "首席人力资源官")),
    "legal": (("General Counsel", "总法律顾问"), ("Chief Legal Officer", "首席法务官")),
    "product": (("Chief Product Officer", "首席产品官"),),
    "support": (("Chief Customer Officer", "首席客户官"),),
    "it": (("Chief Information Officer", "首席信息官"), ("CIO", "首席信息官")),
    "procurement": (("Chief Procurement Officer", "首席采购官"),),
}
CEO_TITLES: tuple[tuple[str, str], ...] = (
    ("Chief Executive Officer", "首席执行官"),
    ("CEO", "首席执行官"),
    ("Founder & CEO", "创始人兼首席执行官"),
    ("Co-founder & CEO", "联合创始人兼首席执行官"),
    ("Managing Director", "总经理"),
    ("President & CEO", "总裁兼首席执行官"),
)

# department -> individual contributor titles (English, Chinese); industrial variants for engineering
IC_TITLES: dict[str, tuple[tuple[str, str], ...]] = {
    "engineering": (
        ("Software Engineer", "软件工程师"),
        ("Backend Engineer", "后端工程师"),
        ("Frontend Engineer", "前端工程师"),
        ("Data Engineer", "数据工程师"),
        ("DevOps Engineer", "运维工程师"),
        ("QA Engineer", "测试工程师"),
    ),
    "engineering_industrial": (
        ("Mechanical Engineer", "机械工程师"),
        ("Process Engineer", "工艺工程师"),
        ("Electrical Engineer", "电气工程师"),
        ("Quality Engineer", "质量工程师"),
        ("Design Engineer", "设计工程师"),
    ),
    "sales": (
        ("Account Executive", "销售代表"),
        ("Sales Representative", "销售代表"),
        ("Business Development Representative", "业务拓展代表"),
        ("Key Account Executive", "大客户销售"),
    ),
    "marketing": (
        ("Marketing Specialist", "市场专员"),
        ("Content Marketer", "内容营销专员"),
        ("Growth Marketer", "增长营销专员"),
        ("Product Marketing Specialist", "产品营销专员"),
    ),
    "finance": (
        ("Financial Analyst", "财务分析师"),
        ("Accountant", "会计"),
        ("FP&A Analyst", "财务规划分析师"),
    ),
    "operations": (
        ("Operations Specialist", "运营专员"),
        ("Production Planner", "生产计划员"),
        ("Supply Chain Analyst", "供应链分析师"),
        ("Logistics Coordinator", "物流协调员"),
    ),
    "hr": (
        ("HR Generalist", "人力资源专员"),
        ("Recruiter", "招聘专员"),
        ("Talent Acquisition Specialist", "人才招聘专员"),
    ),
    "legal": (
        ("Legal Counsel", "法律顾问"),
        ("Paralegal", "律师助理"),
        ("Compliance Specialist", "合规专员"),
    ),
    "product": (
        ("Product Analyst", "产品分析师"),
        ("Product Designer", "产品设计师"),
        ("UX Researcher", "用户研究员"),
    ),
    "support": (
        ("Customer Success Specialist", "客户成功专员"),
        ("Support Engineer", "技术支持工程师"),
        ("Customer Service Representative", "客服代表"),
    ),
    "it": (
        ("Systems Administrator", "系统管理员"),
        ("IT Support Specialist", "IT支持专员"),
        ("Network Engineer", "网络工程师"),
        ("Security Analyst", "安全分析师"),
    ),
    "procurement": (
        ("Buyer", "采购员"),
        ("Purchasing Specialist", "采购专员"),
        ("Sourcing Specialist", "寻源专员"),
    ),
}

DEPARTMENT_PROFILES: dict[str, dict[str, float]] = {
    "tech": {
        "engineering": 30,
        "sales": 16,
        "product": 10,
        "marketing": 9,
        "support": 8,
        "finance": 5,
        "hr": 5,
        "operations": 4,
        "it": 4,
        "legal": 2,
        "procurement": 1,
    },
    "tech_industrial": {
        "engineering": 24,
        "operations": 16,
        "sales": 14,
        "product": 6,
        "marketing": 6,
        "procurement": 6,
        "support": 6,
        "finance": 6,
        "hr": 5,
        "it": 4,
        "legal": 2,
    },
    "industrial": {
        "operations": 26,
        "engineering": 16,
        "sales": 14,
        "procurement": 9,
        "finance": 7,
        "hr": 6,
        "marketing": 5,
        "support": 5,
        "it": 4,
        "legal": 2,
        "product": 2,
    },
    "commerce": {
        "sales": 24,
        "operations": 18,
        "marketing": 14,
        "procurement": 10,
        "support": 10,
        "finance": 7,
        "hr": 5,
        "it": 5,
        "engineering": 3,
        "legal": 2,
        "product": 2,
    },
    "services": {
        "operations": 22,
        "sales": 16,
        "marketing": 10,
        "finance": 10,
        "hr": 10,
        "support": 8,
        "it": 6,
        "legal": 6,
        "engineering": 4,
        "product": 2,
        "procurement": 2,
    },
    "logistics": {
        "operations": 32,
        "sales": 18,
        "support": 10,
        "it": 8,
        "finance": 8,
        "procurement": 6,
        "hr": 6,
        "marketing": 5,
        "engineering": 3,
        "legal": 2,
        "product": 2,
    },
    "finance": {
        "finance": 18,
        "sales": 18,
        "operations": 14,
        "it": 12,
        "legal": 10,
        "marketing": 8,
        "hr": 6,
        "support": 8,
        "product": 4,
        "engineering": 4,
        "procurement": 2,
    },
}
# departments whose head may be a chief officer
CHIEF_DEPARTMENTS = frozenset(
    {"engineering", "sales", "marketing", "finance", "operations", "product", "it", "hr"}
)


def title_for(rnd: random.Random, department: str, seniority: str, industrial: bool) -> tuple[str, str]:
    """An (English, Chinese) job title consistent with department and seniority."""
    label, label_zh = LABELS[department]
    if department == "executive":
        return rnd.choice(CEO_TITLES)
    if seniority == "c_level":
        return rnd.choice(CHIEFS[department])
    if seniority == "vp":
        en = rnd.choice((f"VP of {label}", f"Vice President, {label}", f"VP {label}", f"SVP {label}"))
        return en, f"{label_zh}副总裁"
    if seniority == "director":
        form = rnd.random()
        if form < 0.45:
            return f"Director of {label}", f"{label_zh}总监"
        if form < 0.75:
            return f"{label} Director", f"{label_zh}总监"
        return f"Head of {label}", f"{label_zh}负责人"
    if seniority == "manager":
        if rnd.random() < 0.8:
            return f"{_manager_label(department, industrial)} Manager", f"{label_zh}经理"
        return f"{label} Team Lead", f"{label_zh}主管"
    key = "engineering_industrial" if department == "engineering" and industrial else department
    en, zh = rnd.choice(IC_TITLES[key])
    if seniority == "senior":
        if en.startswith("Senior "):
            return en, zh
        return f"Senior {en}", f"高级{zh}"
    if rnd.random() < 0.2:
        return f"Junior {en}", f"初级{zh}"
    return en, zh


def _manager_label(department: str, industrial: bool) -> str:
    """The word before "Manager" in a manager's title."""
    special = {
        "hr": "HR",
        "support": "Support",
        "procurement": "Purchasing",
        "operations": "Production" if industrial else "Operations",
    }
    return special.get(department, LABELS[department][0])
